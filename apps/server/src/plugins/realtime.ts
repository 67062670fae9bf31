import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import { gameTopic } from '@sagan/shared/topics/game';
import type { Db } from '../db/db.ts';
import { Hub } from '../realtime/hub.ts';
import { SessionWatch } from '../realtime/session-end.ts';
import { NodeWatchers } from '../realtime/watchers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
    sessionWatch: SessionWatch;
    /** Watchers of each game summed over every node (countScoreboardWatchers). */
    gameWatchers: NodeWatchers;
  }
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

/** The realtime hub (LISTEN/NOTIFY fan-out) and the watch that ends sockets of dead sessions. */
export default fp(
  async (app) => {
    const hub = new Hub(withCatchUp(app.db, app.log), app.log, app.config.coalesceMs);
    app.decorate('hub', hub);
    await hub.start();
    // Once every feature has registered its topics: which ones are aggregates is known then.
    app.addHook('onReady', () => hub.bumpAggregates());
    const sessionWatch = new SessionWatch(app.db, hub, app.config.sessionIdleDays, app.log);
    app.decorate('sessionWatch', sessionWatch);
    sessionWatch.start();
    const gameWatchers = new NodeWatchers(app.db, hub, gameTopic.prefix, app.log);
    app.decorate('gameWatchers', gameWatchers);
    await gameWatchers.start();
    // Registered after the db plugin, so this runs before the database closes (LIFO).
    app.addHook('onClose', async () => {
      sessionWatch.stop();
      await gameWatchers.stop();
    });
  },
  { name: 'realtime', dependencies: ['db'] },
);
