import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What other parts of the server report to /metrics. */
interface OpsMetrics {
  /** A backup this server took: how long writes were held, and whether it succeeded. */
  backup(result: 'ok' | 'failed', heldMs: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: OpsMetrics;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A bearer token's match in constant time, so its length or prefix cannot be timed. */
function bearerMatches(req: FastifyRequest, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!given) return false;
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * `/metrics` for operators, in Prometheus text: sockets, subscriptions per topic family, writes
 * (their rate is writes/s), fan-out latency, the database pool, LISTEN reconnects and backups.
 * Without METRICS_TOKEN it answers 404 to everyone; with it, anyone not bearing that token gets
 * the same 404, so its existence is not told to strangers. One registry per server: nothing
 * global, so two servers in one process (tests) count apart.
 */
export default fp(
  async (app) => {
    const registry = new Registry();
    const { hub, db } = app;

    new Gauge({
      name: 'sagan_websocket_connections',
      help: 'Open WebSocket connections on this node',
      registers: [registry],
      collect() {
        this.set(hub.connectionCount);
      },
    });
    new Gauge({
      name: 'sagan_subscriptions',
      help: 'Topic subscriptions on this node, by topic family',
      labelNames: ['family'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [family, n] of hub.subscriptionsByFamily()) this.set({ family }, n);
      },
    });
    const writes = new Counter({
      name: 'sagan_writes_total',
      help: 'Writes answered with success (POST, PUT, PATCH, DELETE under 400); rate() is writes/s',
      registers: [registry],
    });
    const fanout = new Histogram({
      name: 'sagan_fanout_seconds',
      help: 'From a change being heard (NOTIFY) to its frame written to every subscriber',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    hub.fanoutObserver = (seconds) => fanout.observe(seconds);
    new Gauge({
      name: 'sagan_db_pool_clients',
      help: 'PostgreSQL pool clients by state (absent on the embedded database, which has none)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = db.poolStats?.();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    new Gauge({
      name: 'sagan_listen_reconnects',
      help: 'Times the LISTEN connection was re-established since start',
      registers: [registry],
      collect() {
        this.set(db.listenHealth().reconnects);
      },
    });
    new Gauge({
      name: 'sagan_listen_up',
      help: '1 while the LISTEN connection is up, 0 while it is being re-established',
      registers: [registry],
      collect() {
        this.set(db.listenHealth().state === 'up' ? 1 : 0);
      },
    });
    const backups = new Counter({
      name: 'sagan_backups_total',
      help: 'Backups this server took (npm run backup on the embedded database), by result',
      labelNames: ['result'],
      registers: [registry],
    });
    backups.inc({ result: 'ok' }, 0);
    backups.inc({ result: 'failed' }, 0);
    const lastBackup = new Gauge({
      name: 'sagan_backup_last_success_timestamp_seconds',
      help: 'When the last successful backup finished (Unix time; 0: none since start)',
      registers: [registry],
    });
    const heldSeconds = new Gauge({
      name: 'sagan_backup_last_held_seconds',
      help: 'How long the last successful backup held writes',
      registers: [registry],
    });

    app.decorate('metrics', {
      backup(result, heldMs) {
        backups.inc({ result });
        if (result !== 'ok') return;
        lastBackup.set(Date.now() / 1000);
        heldSeconds.set(heldMs / 1000);
      },
    } satisfies OpsMetrics);

    app.addHook('onResponse', async (req, reply) => {
      if (WRITE_METHODS.has(req.method) && reply.statusCode < 400) writes.inc();
    });

    const token = app.config.metricsToken;
    // Registered even when off, so a scraper's bearer is never taken for a Google sign-in.
    app.get(
      '/metrics',
      { config: { ownBearer: true }, schema: { hide: true } },
      async (req, reply) => {
        if (!token || !bearerMatches(req, token)) {
          return reply.code(404).send({ error: 'Not found' });
        }
        return reply
          .header('content-type', registry.contentType)
          .header('cache-control', 'no-store')
          .send(await registry.metrics());
      },
    );
  },
  { name: 'metrics', dependencies: ['db', 'realtime'] },
);
