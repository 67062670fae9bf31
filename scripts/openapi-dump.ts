// Prints the OpenAPI document the server serves at /apps/sagan/api/docs/json, built from the
// real route table on a throwaway in-memory database: no port, no data directory.
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite } from '../apps/server/src/db/db.ts';

const db = await openPglite();
const app = await buildApp(loadConfig({ HOST: '127.0.0.1', WEB_DIST: '/nonexistent' }), {
  db,
  logger: false,
});
await app.ready();
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await db.close();
