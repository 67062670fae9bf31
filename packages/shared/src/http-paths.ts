// Where the API and the socket live: zod-free, so a page's first load can name them without
// loading the shared schemas of http.ts.
import { BASE_PATH } from './routes.ts';

export const API_PATH = `${BASE_PATH}/api`;
export const WS_PATH = `${BASE_PATH}/ws`;
