import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { Hub } from '../realtime/hub.ts';
import { SessionWatch } from '../realtime/session-end.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    hub: Hub;
    sessionWatch: SessionWatch;
  }
}

interface DbPluginOptions {
  config: Config;
  /** Tests pass an already-open database (in-memory PGlite or a PostgreSQL test db). */
  db?: Db;
}

/**
 * NOTIFYs sent while a node's LISTEN connection was down are lost. Once it is back, every
 * topic's current sequence number is fed to the hub as if notified: the hub reloads exactly the
 * topics it serves whose number moved, so viewers converge with no gap.
 */
function withCatchUp(db: Db, log: FastifyBaseLogger): Db {
  return {
    ...db,
    listen: (channel, onPayload, onReconnect) =>
      db.listen(channel, onPayload, () => {
        onReconnect?.();
        db.query<{ topic: string; seq: number }>('SELECT topic, seq FROM topic_seq').then(
          (rows) => {
            log.warn({ topics: rows.length }, 'realtime: LISTEN re-established, catching up');
            onPayload(JSON.stringify(rows.map((r) => [r.topic, Number(r.seq)])));
          },
          (err: unknown) => log.error({ err }, 'realtime: catch-up after reconnect failed'),
        );
      }),
  };
}

export default fp<DbPluginOptions>(
  async (app, opts) => {
    const db =
      opts.db ??
      (opts.config.databaseUrl
        ? await openPostgres(opts.config.databaseUrl)
        : await openPglite(opts.config.dataDir));
    const applied = await migrate(db);
    if (applied.length) app.log.info({ applied }, 'database migrated');
    app.decorate('config', opts.config);
    app.decorate('db', db);
    const hub = new Hub(withCatchUp(db, app.log), app.log);
    app.decorate('hub', hub);
    await hub.start();
    const sessionWatch = new SessionWatch(db, hub, opts.config.sessionIdleDays, app.log);
    app.decorate('sessionWatch', sessionWatch);
    sessionWatch.start();
    app.addHook('onClose', async () => {
      sessionWatch.stop();
      if (!opts.db) await db.close();
    });
  },
  { name: 'db' },
);
