import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { SessionCache } from '../src/auth/session-cache.ts';
import { createSession, revokeSession, sessionIdOf, sessionUser } from '../src/auth/sessions.ts';
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

describe.each(databaseKinds())('session cache renewal on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
    await migrate(database.db);
  });
  afterAll(() => database?.cleanup());

  /**
   * The store as the cache sees it, its session reads counted; while `held`, a read's answer
   * is kept back (after the read, as a slow answer would be) until releaseAll().
   */
  function heldStore() {
    const store = { lookups: 0, held: false, heldReads: 0, waiting: [] as Array<() => void> };
    const db: Db = {
      ...database.db,
      query: async (sql, params) => {
        const read = SESSION_READ.test(sql);
        const held = read && store.held;
        if (read) store.lookups++;
        if (held) store.heldReads++;
        const rows = await database.db.query(sql, params);
        if (held) await new Promise<void>((go) => store.waiting.push(go));
        return rows as never[];
      },
    };
    /** Answers every held read, and lets what follows on each (no more I/O) run. */
    const releaseAll = async () => {
      await until(() => store.waiting.length === store.heldReads, 10_000, 'the held reads ran');
      store.heldReads = 0;
      for (const go of store.waiting.splice(0)) go();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { store, db, releaseAll };
  }

  /** The request's user, or 'waited' when it did not finish before the event loop turned. */
  const userNow = (p: Promise<unknown>) =>
    Promise.race([p, new Promise((done) => setImmediate(() => done('waited')))]);

  /**
   * A new session, read once through a cache of its own whose clock the test moves by hand
   * (`clock.now`), over a held store. `lookUp` is a request's session lookup.
   */
  async function cachedSession(name: string) {
    const uid = `renew-${name}`;
    await database.db.query('INSERT INTO users (uid, display_name) VALUES ($1, $2)', [uid, name]);
    const token = await createSession(database.db, uid, 30);
    const clock = { now: 1_000_000 };
    const cache = new SessionCache(() => clock.now);
    const { store, db, releaseAll } = heldStore();
    const lookUp = () => sessionUser(db, token, 14, cache);
    expect(await lookUp()).toMatchObject({ uid });
    return { uid, token, clock, cache, store, releaseAll, lookUp };
  }

  it('renews a session in use before it is forgotten: no request across its expiry waits on the store', async () => {
    const { uid, clock, store, releaseAll, lookUp } = await cachedSession('Busy Scorer');
    expect(store.lookups).toBe(1);

    // From now on the store's answers are held: a request that waited on one would not finish.
    store.held = true;
    // A scorer's writes every 3 s for a minute, six times the cache's lifetime.
    for (let t = 3_000; t <= 60_000; t += 3_000) {
      clock.now += 3_000;
      expect(await userNow(lookUp())).toMatchObject({ uid });
      // A renewal this request began in the background ends before the next write.
      await releaseAll();
    }
    // Read again about once per half lifetime, never per request.
    expect(store.lookups).toBeGreaterThan(1);
    expect(store.lookups).toBeLessThanOrEqual(1 + 60_000 / (SessionCache.TTL_MS / 2));

    // A session left alone past its time is looked up again, and that request waits.
    clock.now += SessionCache.TTL_MS;
    const late = lookUp();
    expect(await userNow(late)).toBe('waited');
    await releaseAll();
    expect(await late).toMatchObject({ uid });
  });

  it('a renewal under way does not bring back a session signed out meanwhile', async () => {
    const { uid, token, clock, cache, store, releaseAll, lookUp } = await cachedSession('Leaver');
    clock.now += SessionCache.TTL_MS / 2 + 1;
    store.held = true;
    // This request starts the renewal, which reads the session while it is still live…
    expect(await userNow(lookUp())).toMatchObject({ uid });
    await until(() => store.waiting.length === 1, 10_000, 'the renewal read the session');
    // …and the sign-out lands before the renewal's answer does.
    await revokeSession(database.db, token);
    cache.forget([sessionIdOf(token)]);
    store.held = false;
    await releaseAll();
    expect(await lookUp()).toBeNull();
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
