import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import pg from 'pg';
import { API_PATH, WS_PATH } from '@sagan/shared/http';
import { buildApp } from '../src/app.ts';
import { loadConfig, pgliteThreadFor, type Config } from '../src/config.ts';
import { openPglite, openPostgres, type Db } from '../src/db/db.ts';

export interface TestDatabase {
  db: Db;
  /** The connection URL (PostgreSQL only), for a second node on the same database. */
  url: string | undefined;
  cleanup(): Promise<void>;
}

interface OpenOptions {
  /** No migrations applied: for tests that migrate step by step themselves. */
  empty?: boolean;
}

export interface DatabaseKind {
  name: 'pglite' | 'postgres';
  /** A fresh database of this kind, migrated unless `empty`. */
  open(options?: OpenOptions): Promise<TestDatabase>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PGlite data folder as a tarball (global-setup.ts makes it). */
    pgliteTemplate: string;
    /** The same before any migration (initdb only). */
    pgliteEmptyTemplate: string;
    /** A migrated PostgreSQL database to copy (global-setup.ts, when the run has PostgreSQL). */
    postgresTemplate: string;
    /** An empty folder for the run's SSR bundle (ssr-bundle.ts builds it there when first asked). */
    ssrBundleCache: string;
  }
}

const pgliteTemplates = new Map<'pgliteTemplate' | 'pgliteEmptyTemplate', Blob>();

/**
 * An in-memory PGlite loaded from the run's data folder, migrated or not (each read once per
 * worker), in the thread the server would run it in on this machine (PGLITE_THREAD=auto: its
 * own thread on three or more cores, the server's on fewer). pglite-thread.test.ts and
 * pglite-worker.test.ts run both on any machine.
 */
async function openPgliteFrom(name: 'pgliteTemplate' | 'pgliteEmptyTemplate'): Promise<Db> {
  let template = pgliteTemplates.get(name);
  if (!template) {
    template = new Blob([fs.readFileSync(inject(name))]);
    pgliteTemplates.set(name, template);
  }
  return openPglite(undefined, { loadDataDir: template, thread: pgliteThreadFor('auto') });
}

const pgliteKind: DatabaseKind = {
  name: 'pglite',
  async open({ empty = false } = {}) {
    const db = await openPgliteFrom(empty ? 'pgliteEmptyTemplate' : 'pgliteTemplate');
    return { db, url: undefined, cleanup: () => db.close() };
  },
};

function postgresKind(adminUrl: string): DatabaseKind {
  return {
    name: 'postgres',
    async open({ empty = false } = {}) {
      // A fresh database per test file keeps files independent when they run in parallel.
      const name = `sagan_t_${crypto.randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(
        `CREATE DATABASE ${name}${empty ? '' : ` TEMPLATE ${inject('postgresTemplate')}`}`,
      );
      await admin.end();
      const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
      const db = await openPostgres(url);
      return {
        db,
        url,
        async cleanup() {
          await db.close();
          const a = new pg.Client({ connectionString: adminUrl });
          await a.connect();
          await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await a.end();
        },
      };
    },
  };
}

/**
 * The databases every integration suite runs against: PGlite always, PostgreSQL when the test
 * script started one (TEST_DATABASE_URL). REQUIRE_POSTGRES=1 (set by the test script) makes a
 * missing server an error rather than a silently skipped half of the suite.
 */
export function databaseKinds(): DatabaseKind[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.REQUIRE_POSTGRES === '1') {
    throw new Error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set');
  }
  return url ? [pgliteKind, postgresKind(url)] : [pgliteKind];
}

/** The PostgreSQL kind when this run has one (suites that need a server database). */
export function postgresKindIfAny(): DatabaseKind | undefined {
  return databaseKinds().find((k) => k.name === 'postgres');
}

export function testConfig(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
): Config {
  return {
    ...loadConfig({
      HOST: '127.0.0.1',
      DATA_DIR: '/nonexistent',
      WEB_DIST: '/nonexistent',
      ...env,
    }),
    rateLimitFactor: 1000,
    ...overrides,
  };
}

export async function buildTestApp(
  db: Db,
  overrides: Partial<Config> = {},
): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(overrides), { db, logger: false });
  await app.ready();
  return app;
}

export const API = API_PATH;

/** A signed-in test user: its cookie, uid, and an inject() that sends both CSRF and cookie. */
export interface TestUser {
  uid: string;
  displayName: string;
  cookie: string;
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
}

/**
 * The local sign-in as the web app sends it (payload `{ displayName }`), headers on top; the
 * raw answer, for tests of what it refuses and of the cookie it sets.
 */
export function postLocalSignIn(
  app: FastifyInstance,
  payload: InjectOptions['payload'],
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `${API}/auth/local`,
    headers: { 'x-sagan-request': '1', ...headers },
    payload,
  });
}

export async function signInLocal(app: FastifyInstance, displayName: string): Promise<TestUser> {
  const res = await postLocalSignIn(app, { displayName });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const setCookie = res.cookies[0];
  if (!setCookie) throw new Error('no session cookie');
  const cookie = `${setCookie.name}=${setCookie.value}`;
  const { uid } = res.json<{ uid: string }>();
  return {
    uid,
    displayName,
    cookie,
    request: (opts) =>
      app.inject({
        ...opts,
        headers: { 'x-sagan-request': '1', cookie, ...(opts.headers ?? {}) },
      }),
  };
}

/** How many taps a game's event log holds (a refused tap must add none). */
export async function eventCount(db: Db, gameKey: string): Promise<number> {
  const rows = await db.query<{ n: number | string }>(
    'SELECT count(*) AS n FROM game_events WHERE game_key = $1',
    [gameKey],
  );
  return Number(rows[0]!.n);
}

/** A new game of the user's with these scoreboard fields (as the phone apps create one). */
export async function newGameOf(user: TestUser, fields: object = {}): Promise<string> {
  const res = await user.request({ method: 'POST', url: `${API}/games`, payload: fields });
  if (res.statusCode !== 200) throw new Error(`new game: ${res.statusCode} ${res.body}`);
  return res.json<{ gameKey: string }>().gameKey;
}

/**
 * A tap on a game's scorekeeper (POST …/events) as the user, from the device (a phone by
 * default), under the Idempotency-Key when one is given; `fields` go in the body beside the
 * action (a baseSeq, a period). The raw answer, so that a test can check a refusal too.
 */
export function tapOn(
  user: TestUser,
  gameKey: string,
  action: object,
  {
    device = 'phone-a',
    key,
    ...fields
  }: { device?: string; key?: string; [field: string]: unknown } = {},
): Promise<LightMyRequestResponse> {
  return user.request({
    method: 'POST',
    url: `${API}/games/${gameKey}/events`,
    payload: { action, device, ...fields },
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
}

/** A new team sheet of the coach's (empty, unless fields say more); its key. */
export async function newTeamOf(coach: TestUser, fields?: object): Promise<string> {
  const team = await coach.request({ method: 'POST', url: `${API}/teams`, payload: fields });
  if (team.statusCode >= 300) throw new Error(`new team: ${team.statusCode} ${team.body}`);
  return team.json<{ teamKey: string }>().teamKey;
}

/** A new team of the coach's with one player on it, and a way to send that player's photo. */
export async function newTeamWithPlayer(coach: TestUser) {
  const teamKey = await newTeamOf(coach);
  const player = await coach.request({
    method: 'PUT',
    url: `${API}/teams/${teamKey}/players/-1`,
    payload: { jersey: '9', playerName: 'Sam Park', playerNotes: '' },
  });
  if (player.statusCode >= 300) throw new Error(`new player: ${player.statusCode} ${player.body}`);
  const playerKey = player.json<{ key: string }>().key;
  return {
    teamKey,
    playerKey,
    uploadPhoto: (body: Buffer, contentType = 'image/png') =>
      coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/${playerKey}/photo`,
        headers: { 'content-type': contentType },
        payload: body,
      }),
  };
}

/** An anonymous caller that still sends the CSRF header (so refusals are about identity). */
export function anonymous(app: FastifyInstance) {
  return (opts: InjectOptions) =>
    app.inject({ ...opts, headers: { 'x-sagan-request': '1', ...(opts.headers ?? {}) } });
}

/** The socket URL of an app that is listening (after `app.listen`). */
function wsUrl(app: FastifyInstance): string {
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}${WS_PATH}`;
}

/** Listens on a free port and answers the socket URL. */
export async function listenWs(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return wsUrl(app);
}

export interface TestAppOptions<U extends string = never> {
  /** Display names to sign in once the app is built; the handle's `users` is keyed by them. */
  users?: readonly U[];
  config?: Partial<Config>;
  /** Listen on a free port (for sockets and real HTTP clients); `wsUrl` is then set. */
  listen?: boolean;
  /** Runs on the fresh database before the app is built on it (test tables, spies). */
  beforeBuild?: (db: Db) => unknown;
  /** Start from a database with no migrations applied (`beforeBuild` migrates it part way). */
  emptyDatabase?: boolean;
}

/** What `useTestApp` fills in before the suite's tests run. */
export interface TestApp<U extends string = never> {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  users: Record<U, TestUser>;
  /** The socket URL, when the options asked to listen. */
  wsUrl: string;
}

/**
 * The setup every integration suite shares: opens a fresh database of this kind, builds the app
 * on it, signs the users in (and listens, if asked) before the suite; closes the app and drops
 * the database after it. The handle's fields are set once `beforeAll` has run. Options given as
 * a function are read inside that hook, so they can use what earlier hooks made (a temp dir, a
 * stand-in server); hooks that use the app are declared after this call.
 */
export function useTestApp<const U extends string = never>(
  kind: DatabaseKind,
  options: TestAppOptions<U> | (() => TestAppOptions<U>) = {},
): TestApp<U> {
  const handle = { users: {}, wsUrl: '' } as TestApp<U>;
  beforeAll(async () => {
    const {
      users = [],
      config = {},
      listen = false,
      beforeBuild,
      emptyDatabase = false,
    } = typeof options === 'function' ? options() : options;
    handle.database = await kind.open({ empty: emptyDatabase });
    handle.db = handle.database.db;
    await beforeBuild?.(handle.db);
    handle.app = await buildTestApp(handle.db, config);
    if (listen) handle.wsUrl = await listenWs(handle.app);
    for (const name of users) handle.users[name] = await signInLocal(handle.app, name);
  });
  afterAll(async () => {
    await handle.app?.close();
    await handle.database?.cleanup();
  });
  return handle;
}

/** Another node on a PostgreSQL test database, with its own connections as a separate process. */
export interface TestNode {
  app: FastifyInstance;
  db: Db;
  /** Closes the app, then its connections. */
  close(): Promise<void>;
}

/** Builds another node (not listening) on the same PostgreSQL database as `database`. */
export async function openNode(
  database: TestDatabase,
  config: Partial<Config> = {},
): Promise<TestNode> {
  if (!database.url) throw new Error('a second node needs a PostgreSQL database');
  const db = await openPostgres(database.url);
  const app = await buildTestApp(db, config);
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

export interface TwoNodesOptions {
  config?: Partial<Config>;
  /** Runs on the fresh database before either node is built on it (test tables). */
  beforeBuild?: (db: Db) => unknown;
  /** Runs on each node once it is built, before it listens (test topics). */
  onNode?: (app: FastifyInstance) => unknown;
}

/** What `useTwoNodes` fills in before the suite's tests run. */
export interface TwoNodes {
  database: TestDatabase;
  /** Node A runs on the database's own connections. */
  nodeA: FastifyInstance;
  /** Node B has connections of its own, as a separate process would. */
  nodeB: FastifyInstance;
  dbB: Db;
  /** The socket URLs of the two nodes, both listening. */
  urlA: string;
  urlB: string;
}

/**
 * The setup of the multi-node suites: two listening app instances on one fresh PostgreSQL
 * database before the suite, all closed and the database dropped after it. Use it inside
 * `describe.runIf(kind)`, with the PostgreSQL kind from `postgresKindIfAny()`.
 */
export function useTwoNodes(
  kind: DatabaseKind | undefined,
  options: TwoNodesOptions = {},
): TwoNodes {
  const handle = {} as TwoNodes;
  let nodeB: TestNode | undefined;
  beforeAll(async () => {
    if (kind?.name !== 'postgres') throw new Error('two nodes share a database only on PostgreSQL');
    const { config = {}, beforeBuild, onNode } = options;
    handle.database = await kind.open();
    await beforeBuild?.(handle.database.db);
    handle.nodeA = await buildTestApp(handle.database.db, config);
    nodeB = await openNode(handle.database, config);
    handle.nodeB = nodeB.app;
    handle.dbB = nodeB.db;
    for (const app of [handle.nodeA, handle.nodeB]) await onNode?.(app);
    handle.urlA = await listenWs(handle.nodeA);
    handle.urlB = await listenWs(handle.nodeB);
  });
  afterAll(async () => {
    await handle.nodeA?.close();
    await nodeB?.close();
    await handle.database?.cleanup();
  });
  return handle;
}

/**
 * A fresh folder for the suite (a data dir, a web build), holding `files` (path inside it →
 * content), made before the suite and removed after it. The answer gives its path once
 * `beforeAll` has run: declare it before the `useTestApp` whose options name it.
 */
export function useTempDir(prefix: string, files: Record<string, string> = {}): () => string {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/** A refusal by a rate limit: 429 with a Retry-After within the minute, in one short sentence. */
export function expectRateLimited(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  // Like every other refusal: no stack or internals.
  expect(res.json<{ error: string }>().error).toMatch(/rate limit|too many/i);
}

// The tests' one until(), here too for the server's tests that import their helpers from here.
export { until } from '../../../test/until.ts';

/** A repeatable random source (mulberry32), so a simulated game is the same on every run. */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** setImmediate turns the event loop makes while a 0.3 s statement runs (at most 5). */
export async function turnsDuring(db: Db): Promise<number> {
  let turns = 0;
  let done = false;
  const query = db.query('SELECT pg_sleep(0.3)').then(() => (done = true));
  while (!done && turns < 5) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  await query;
  return turns;
}
