import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { ServerMessage } from '@sagan/shared/realtime';
import { MAX_BUFFERED_BYTES } from '../src/realtime/hub.ts';
import { API, databaseKinds, until, useTestApp } from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

/** Realtime under failure: viewers cut off, slow consumers, a lost LISTEN connection. */
async function probe(app: FastifyInstance): Promise<void> {
  app.hub.register({
    topic: { prefix: 'rprobe', private: false, coalesce: false },
    authorize: () => true,
    load: async (q, arg) => {
      const rows = await q.query<{ v: number; pad: string }>(
        'SELECT v, pad FROM rprobe WHERE k = $1',
        [arg],
      );
      return rows[0] ?? null;
    },
  });
}

async function setProbe(app: FastifyInstance, k: string, v: number, pad = ''): Promise<void> {
  await app.db.tx(async (q) => {
    await q.query(
      `INSERT INTO rprobe (k, v, pad) VALUES ($1, $2, $3)
       ON CONFLICT (k) DO UPDATE SET v = $2, pad = $3`,
      [k, v, pad],
    );
    await app.hub.changed(q, [`rprobe:${k}`]);
  });
}

type StateMsg = Extract<ServerMessage, { type: 'state' }>;

describe.each(databaseKinds())('realtime faults on $name', (kind) => {
  const t = useTestApp(kind, {
    listen: true,
    beforeBuild: (db) =>
      db.query('CREATE TABLE rprobe (k text PRIMARY KEY, v integer NOT NULL, pad text NOT NULL)'),
  });
  beforeAll(() => probe(t.app));

  // A live clock ticks once a second: an outage of N seconds is N changes the viewer misses.
  it.each([5, 60, 150])(
    'a viewer cut off for %i s of clock ticks converges with no gap and no duplicate',
    async (seconds) => {
      const topic = `rprobe:clock${seconds}`;
      await setProbe(t.app, `clock${seconds}`, 0);
      const ws = await TestSocket.open(t.wsUrl);
      ws.send({ type: 'subscribe', topic });
      const first = await ws.waitFor(isState(topic));
      ws.ws.terminate(); // the network drops; no goodbye
      await ws.waitClosed();
      for (let s = 1; s <= seconds; s++) await setProbe(t.app, `clock${seconds}`, s);

      const back = await TestSocket.open(t.wsUrl);
      back.send({ type: 'subscribe', topic, sinceSeq: first.seq });
      const resumed = await back.waitFor(isState(topic));
      expect(resumed.data).toMatchObject({ v: seconds });
      expect(resumed.seq).toBe(first.seq + seconds);
      await setProbe(t.app, `clock${seconds}`, seconds + 1);
      const next = await back.waitFor(isState(topic), back.messages.indexOf(resumed) + 1);
      expect(next.seq).toBe(resumed.seq + 1);
      // Each state seen once, in order: no repeat of an old state after the resume.
      const seqs = back.messages.filter((m): m is StateMsg => m.type === 'state').map((m) => m.seq);
      expect(seqs).toEqual([first.seq + seconds, first.seq + seconds + 1]);
      back.close();
    },
  );

  // The cut-off lives in the hub, whatever the database; PGlite writes 200 KB states too slowly
  // to fill the socket buffers within the test timeout, so this runs on PostgreSQL.
  it.runIf(kind.name === 'postgres')(
    'cuts off a consumer that stops reading before 1 MB is buffered; others keep up',
    async () => {
      const pad = 'x'.repeat(200 * 1024);
      await setProbe(t.app, 'big', 0, pad);
      const slow = await TestSocket.open(t.wsUrl);
      const healthy = await TestSocket.open(t.wsUrl);
      for (const s of [slow, healthy]) s.send({ type: 'subscribe', topic: 'rprobe:big' });
      await slow.waitFor(isState('rprobe:big'));
      await healthy.waitFor(isState('rprobe:big'));
      // The slow viewer's process stops reading its socket: the kernel buffers fill, then ours.
      (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      let maxBuffered = 0;
      let v = 0;
      const serverSockets = () => [...t.app.websocketServer.clients];
      const open = serverSockets().length;
      while (v < 500 && serverSockets().length === open) {
        await setProbe(t.app, 'big', ++v, pad);
        for (const c of serverSockets()) maxBuffered = Math.max(maxBuffered, c.bufferedAmount);
      }
      await until(() => serverSockets().length === open - 1, 15_000);
      // Checked before each send, so it never holds more than the limit plus one frame.
      expect(maxBuffered).toBeLessThanOrEqual(MAX_BUFFERED_BYTES + pad.length + 1024);
      const last = v;
      await until(
        () =>
          healthy.messages.some((m) => m.type === 'state' && (m.data as { v: number }).v === last),
        15_000,
      );
      healthy.close();
      slow.ws.terminate();
    },
  );

  // Without a listener of our own, the pool leaves a lent-out client deaf to 'error': the FATAL
  // of a killed backend arriving between two queries would be an uncaught exception.
  it.runIf(kind.name === 'postgres')(
    'a transaction whose connection is killed between queries fails, and the process lives on',
    async () => {
      const killer = new pg.Client({ connectionString: t.database.url });
      killer.on('error', () => undefined);
      await killer.connect();
      try {
        await expect(
          t.app.db.tx(async (q) => {
            const [row] = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            await killer.query('SELECT pg_terminate_backend($1)', [row!.pid]);
            await new Promise((r) => setTimeout(r, 300)); // the FATAL arrives while idle
            await q.query('SELECT 1');
          }),
        ).rejects.toThrow();
      } finally {
        await killer.end();
      }
      // The broken connection left the pool: the next writes work.
      await setProbe(t.app, 'after-kill', 1);
      expect(await t.app.db.query('SELECT v FROM rprobe WHERE k = $1', ['after-kill'])).toEqual([
        { v: 1 },
      ]);
    },
  );

  it.runIf(kind.name === 'postgres')(
    'a lost LISTEN connection is retried, health says so, and viewers miss nothing',
    async () => {
      await setProbe(t.app, 'listen', 1);
      const ws = await TestSocket.open(t.wsUrl);
      ws.send({ type: 'subscribe', topic: 'rprobe:listen' });
      await ws.waitFor(isState('rprobe:listen'));

      // PostgreSQL cannot refuse connections to the database the command runs in: admin works
      // from the cluster's maintenance database. The writer is connected beforehand, so it can
      // still write while the node cannot reconnect.
      const dbName = new URL(t.database.url!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      const writer = new pg.Client({ connectionString: t.database.url });
      for (const c of [admin, writer]) {
        c.on('error', () => undefined);
        await c.connect();
      }
      const reconnectsBefore = t.app.db.listenHealth().reconnects;
      // Keep it down long enough to write while nobody listens: no new connections at all.
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
      try {
        const killed = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = $1 AND query ILIKE 'LISTEN%'`,
          [dbName],
        );
        expect(killed.rowCount).toBe(1);
        await until(() => t.app.db.listenHealth().state === 'down', 15_000);
        const health = await t.app.inject({ method: 'GET', url: `${API}/health` });
        expect(health.statusCode).toBe(503);
        expect(health.json()).toMatchObject({ ok: false, listen: { state: 'down' } });

        // A change made while the node is deaf: committed and notified, but nobody hears it.
        await writer.query('BEGIN');
        await writer.query('UPDATE rprobe SET v = 2 WHERE k = $1', ['listen']);
        await t.app.hub.changed(
          { query: async (sql, params) => (await writer.query(sql, params)).rows },
          ['rprobe:listen'],
        );
        await writer.query('COMMIT');
        await new Promise((r) => setTimeout(r, 500));
        // Still down (connections are refused), so the viewer has not seen it yet.
        expect(t.app.db.listenHealth().state).toBe('down');
        expect(
          ws.messages.some((m) => m.type === 'state' && (m.data as { v: number }).v === 2),
        ).toBe(false);
      } finally {
        await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
        await admin.end();
        await writer.end();
      }
      // Back: LISTEN re-established, and the catch-up delivers what was missed.
      const caught = await ws.waitFor(
        (m): m is StateMsg =>
          m.type === 'state' && m.topic === 'rprobe:listen' && (m.data as { v: number }).v === 2,
        0,
        20_000,
      );
      expect(caught.data).toMatchObject({ v: 2 });
      await until(() => t.app.db.listenHealth().state === 'up', 15_000);
      const health = await t.app.inject({ method: 'GET', url: `${API}/health` });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({
        ok: true,
        listen: { state: 'up', reconnects: reconnectsBefore + 1 },
      });
      // And live updates flow again.
      await setProbe(t.app, 'listen', 3);
      await ws.waitFor(
        (m): m is StateMsg => m.type === 'state' && (m.data as { v: number }).v === 3,
      );
      ws.close();
    },
  );
});
