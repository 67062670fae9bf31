import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { openConfigured, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
  }
}

interface DbPluginOptions {
  config: Config;
  /** Tests pass an already-open database (in-memory PGlite or a PostgreSQL test db). */
  db?: Db;
  /** The configured database, already being opened; the app closes it as if it had opened it. */
  opening?: Promise<Db>;
}

export default fp<DbPluginOptions>(
  async (app, opts) => {
    const db = opts.db ?? (await (opts.opening ?? openConfigured(opts.config)));
    const applied = await migrate(db);
    if (applied.length) app.log.info({ applied }, 'database migrated');
    app.decorate('config', opts.config);
    app.decorate('db', db);
    app.addHook('onClose', async () => {
      if (!opts.db) await db.close();
    });
  },
  { name: 'db' },
);
