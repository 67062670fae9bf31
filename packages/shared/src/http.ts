// The HTTP vocabulary both ends speak: where the API and the socket live, and the bodies every
// route shares (an error, a bare ok, the standard refusals), so no route declares its own copy.
import { z } from 'zod';

export { API_PATH, WS_PATH } from './http-paths.ts';

/** Every 4xx/5xx body (the server's error handler sends this shape). */
export const errorSchema = z.object({ error: z.string() });

/** The body of a write that has nothing to return. */
export const okSchema = z.object({ ok: z.literal(true) });

/** The refusals a signed-in route may answer with, for its response schema. */
export const refusals = { 401: errorSchema, 403: errorSchema, 404: errorSchema } as const;

/** The same, for a route that also validates a body or parameters. */
export const refusalsWithBadRequest = { 400: errorSchema, ...refusals } as const;
