// The web app's realtime client against the real server: lives here, beside both apps, because
// neither app may import the other.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  buildTestApp,
  databaseKinds,
  type TestDatabase,
  until,
} from '../apps/server/test/helpers.ts';
import { createProbeTable, registerProbeTopic, setProbe } from '../apps/server/test/probe-topic.ts';
import type { RealtimeClient } from '../apps/web/src/lib/realtime.ts';
import { WS_PATH } from '@sagan/shared/http';
import { useWebRealtime } from './web-realtime.ts';

const kind = databaseKinds()[0]!;

async function startNode(database: TestDatabase, port = 0): Promise<FastifyInstance> {
  const app = await buildTestApp(database.db);
  registerProbeTopic(app);
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}

// Not useTestApp: the database gets a probe table before the app starts, and the app is
// stopped and started again on the same port, which a suite-long app cannot do.
describe('web realtime client', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  let client: RealtimeClient;
  const openClient = useWebRealtime();

  beforeAll(async () => {
    database = await kind.open();
    await createProbeTable(database.db);
    app = await startNode(database);
    port = (app.server.address() as AddressInfo).port;
    client = openClient(`ws://127.0.0.1:${port}${WS_PATH}`);
  });
  afterAll(async () => {
    await app.close();
    await database.cleanup();
  });

  it('gets the current state, live changes, and converges after the server restarts', async () => {
    await setProbe(app, 'k', 1);
    const seen: number[] = [];
    const unsubscribe = client.subscribe('probe:k', () => {
      seen.push((client.snapshot('probe:k')?.data as { v: number }).v);
    });
    await until(() => seen.includes(1));
    await setProbe(app, 'k', 2);
    await until(() => seen.includes(2));

    // The server goes away (its viewers get a reconnect hint), a write lands while it is down
    // (through the database, as another node would), and a new server starts on the same port.
    await app.close();
    await database.db.query('UPDATE probe_values SET v = 3 WHERE k = $1', ['k']);
    await database.db.query("UPDATE topic_seq SET seq = seq + 1 WHERE topic = 'probe:k'");
    app = await startNode(database, port);
    await until(() => seen.includes(3), 20_000);
    // No state was delivered twice or out of order.
    expect(seen).toEqual([1, 2, 3]);
    await setProbe(app, 'k', 4);
    await until(() => seen.includes(4));
    expect(seen).toEqual([1, 2, 3, 4]);
    unsubscribe();
  }, 40_000);
});
