import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import {
  API,
  buildTestApp,
  databaseKinds,
  postgresKindIfAny,
  signInLocal,
  type TestDatabase,
  until,
  useTwoNodes,
} from './helpers.ts';

/**
 * Sessions are remembered in memory (auth/session-cache.ts): a request with a known session
 * costs no lookup in the store, and a sign-out is refused at once on its node and, through
 * NOTIFY, within a second on the others.
 */
const SESSION_READ = /FROM sessions s JOIN users u/;

const me = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'GET', url: `${API}/auth/me`, headers: { cookie } });

describe.each(databaseKinds())('session cache on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let reads = 0;
  beforeAll(async () => {
    database = await kind.open();
    const db = database.db;
    const counting: Db = {
      ...db,
      query: (sql, params) => {
        if (SESSION_READ.test(sql)) reads++;
        return db.query(sql, params);
      },
    };
    app = await buildTestApp(counting);
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('reads a session from the store once, not per request', async () => {
    const user = await signInLocal(app, 'Cached');
    const before = reads;
    for (let i = 0; i < 5; i++) expect((await me(app, user.cookie)).statusCode).toBe(200);
    expect(reads - before).toBe(1);
    // Another session is another lookup.
    const other = await signInLocal(app, 'Cached Too');
    expect((await me(app, other.cookie)).json()).toMatchObject({ uid: other.uid });
    expect(reads - before).toBe(2);
  });

  it('refuses a signed-out session on the very next request', async () => {
    const user = await signInLocal(app, 'Leaving');
    expect((await me(app, user.cookie)).statusCode).toBe(200);
    await user.request({ method: 'POST', url: `${API}/auth/logout` });
    expect((await me(app, user.cookie)).statusCode).toBe(401);
  });

  it('refuses every session after sign-out everywhere', async () => {
    const first = await signInLocal(app, 'Everywhere');
    const second = await signInLocal(app, 'Everywhere');
    expect(second.uid).toBe(first.uid);
    for (const u of [first, second]) expect((await me(app, u.cookie)).statusCode).toBe(200);
    await first.request({ method: 'POST', url: `${API}/auth/logout-all` });
    for (const u of [first, second]) expect((await me(app, u.cookie)).statusCode).toBe(401);
  });

  it('does not remember a session past its expiry', async () => {
    const user = await signInLocal(app, 'Short');
    await database.db.query(
      `UPDATE sessions SET expires_at = now() + interval '300 milliseconds' WHERE uid = $1`,
      [user.uid],
    );
    expect((await me(app, user.cookie)).statusCode).toBe(200);
    // Wait on the store's clock, not ours: once it says expired, the memory must agree.
    await until(
      async () =>
        !(
          await database.db.query<{ live: boolean }>(
            'SELECT expires_at > now() AS live FROM sessions WHERE uid = $1',
            [user.uid],
          )
        )[0]?.live,
      10_000,
      'the session expired in the store',
    );
    expect((await me(app, user.cookie)).statusCode).toBe(401);
  });
});

const postgres = postgresKindIfAny();
describe.runIf(postgres)('session cache on two nodes', () => {
  const t = useTwoNodes(postgres);

  it('a sign-out on node A is refused on node B within a second', async () => {
    const user = await signInLocal(t.nodeA, 'Two Nodes Cached');
    // Node B remembers the session.
    expect((await me(t.nodeB, user.cookie)).statusCode).toBe(200);
    const t0 = performance.now();
    await user.request({ method: 'POST', url: `${API}/auth/logout` });
    let status = 200;
    while (status === 200) {
      // A remembered session's request does no I/O: let the LISTEN connection be read.
      await new Promise((resolve) => setImmediate(resolve));
      status = (await me(t.nodeB, user.cookie)).statusCode;
    }
    const ms = performance.now() - t0;
    expect(status).toBe(401);
    // Well inside the cache's lifetime (10 s): the NOTIFY, not the expiry of the memory.
    expect(ms).toBeLessThan(1000);
    console.log(`sign-out on node A → refused on node B: ${ms.toFixed(1)} ms`);
  });
});
