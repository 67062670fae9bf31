// The web realtime client taking over a server-rendered page (docs/decisions/0013): seeded with
// the state the page was rendered with, it resumes from that sequence number instead of
// fetching the state again, and goes on live.
import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { databaseKinds, useTestApp } from '../apps/server/test/helpers.ts';

(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
const { RealtimeClient } = await import('../apps/web/src/lib/realtime.ts');

const kind = databaseKinds()[0]!;

async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('realtime client seeded from a server-rendered page', () => {
  const t = useTestApp(kind, {
    listen: true,
    beforeBuild: (db) =>
      db.query('CREATE TABLE seed_values (k text PRIMARY KEY, v integer NOT NULL)'),
  });
  beforeAll(() => {
    t.app.hub.register({
      topic: { prefix: 'seed', private: false, coalesce: false },
      authorize: () => true,
      load: async (q, arg) =>
        (await q.query<{ v: number }>('SELECT v FROM seed_values WHERE k = $1', [arg]))[0] ?? null,
    });
  });

  async function set(k: string, v: number) {
    await t.app.db.tx(async (q) => {
      await q.query(
        'INSERT INTO seed_values (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = $2',
        [k, v],
      );
      await t.app.hub.changed(q, [`seed:${k}`]);
    });
  }

  it('shows the seeded state at once, is not sent it again, and then goes on live', async () => {
    await set('a', 1);
    const rendered = await t.app.hub.current('seed:a');
    const client = new RealtimeClient(() => t.wsUrl);
    client.seed({ topic: 'seed:a', ...rendered });
    expect(client.snapshot('seed:a')).toMatchObject({ received: true, data: { v: 1 } });

    let calls = 0;
    const unsubscribe = client.subscribe('seed:a', () => calls++);
    await until(() => t.app.hub.subscriberCount('seed:a') === 1);
    // Resumed with sinceSeq: the server answered `current`, so nothing was delivered.
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toBe(0);

    await set('a', 2);
    await until(() => calls === 1);
    expect(client.snapshot('seed:a')?.data).toEqual({ v: 2 });
    unsubscribe();
  });

  it('a page rendered before a write catches up as soon as it subscribes', async () => {
    await set('b', 1);
    const rendered = await t.app.hub.current('seed:b');
    await set('b', 2);
    const client = new RealtimeClient(() => t.wsUrl);
    client.seed({ topic: 'seed:b', ...rendered });
    let calls = 0;
    const unsubscribe = client.subscribe('seed:b', () => calls++);
    await until(() => calls === 1);
    expect(client.snapshot('seed:b')?.data).toEqual({ v: 2 });
    unsubscribe();
  });

  it('a seed never overwrites a topic the client already holds', () => {
    const client = new RealtimeClient(() => t.wsUrl);
    client.seed({ topic: 'seed:c', seq: 5, data: { v: 5 } });
    client.seed({ topic: 'seed:c', seq: 1, data: { v: 1 } });
    expect(client.snapshot('seed:c')?.data).toEqual({ v: 5 });
  });
});
