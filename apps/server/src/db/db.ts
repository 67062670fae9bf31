import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { PgliteStatements } from './pglite-prepared.ts';
import type { Reply, Request, WorkerOptions } from './pglite-protocol.ts';
import { momentOf, type Moment } from './moment.ts';
import { count, sqlLabel, trace } from './trace.ts';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Callbacks of the transactions now open, by the handle their function was given. */
const commitHooks = new WeakMap<Queryable, Array<() => void>>();

/**
 * Runs fn once q's transaction has committed (never, if it rolls back); at once when q is not
 * a transaction, whose statements have committed already. For work that must not happen inside
 * the transaction, e.g. telling others about a change without holding its locks until commit.
 */
export function afterCommit(q: Queryable, fn: () => void): void {
  const hooks = commitHooks.get(q);
  if (hooks) hooks.push(fn);
  else fn();
}

/** A transaction's handle: afterCommit(handle, …) waits for its commit. */
function txHandle(query: Queryable['query']): { q: Queryable; committed(): void } {
  const q: Queryable = { query };
  const hooks: Array<() => void> = [];
  commitHooks.set(q, hooks);
  return {
    q,
    committed() {
      commitHooks.delete(q);
      for (const fn of hooks) fn();
    },
  };
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn in one transaction; NOTIFYs sent inside are delivered on commit. On PGlite, fn may
   * share its transaction with other writes (group commit) and run again if another's failure
   * rolled it back: only its last run's statements and after-commit work count, so work it
   * does outside the database must be safe to do again.
   */
  tx<T>(fn: (q: Queryable) => Promise<T>, opts?: { snapshot?: boolean }): Promise<T>;
  /**
   * Calls onPayload for each NOTIFY on channel. If the listening connection drops it is
   * re-established with backoff, and onReconnect runs once LISTEN is back, so the caller can
   * catch up on what was sent while nobody listened.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * Sends payload to channel's listeners once q commits (at once when q is not a transaction),
   * never if it rolls back. PostgreSQL: a NOTIFY, to every node. PGlite: straight to this
   * process's listeners, since no other process can open its data folder; a NOTIFY would make
   * PostgreSQL queue the payload, wake its own backend and read it back at every commit.
   */
  notify(q: Queryable, channel: string, payload: string): Promise<void>;
  /** The state of the LISTEN connections, for the health endpoint. */
  listenHealth(): ListenHealth;
  /**
   * PGlite only: its data folder as a tarball, with the moment it holds, taken while no other
   * statement runs (a copy of the folder made beside a running PGlite is not a backup).
   * PostgreSQL is backed up with pg_dump instead.
   */
  dumpDataDir(): Promise<DataDirDump>;
  /** PostgreSQL only: the connection pool's clients (an embedded database has no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

interface DataDirDump {
  /** The data folder as an uncompressed tar. */
  tar: Uint8Array;
  moment: Moment;
  /** The PGlite release that wrote it: another may not read its files. */
  pgliteVersion: string;
  /** How long every other statement waited for the dump. */
  heldMs: number;
}

/** The installed PGlite release, read from its package (which exports no version). */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pkg = JSON.parse(
    fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
  ) as { version: string };
  return pkg.version;
}

interface ListenHealth {
  /** 'down' while a dropped LISTEN connection is being re-established. */
  state: 'up' | 'down';
  reconnects: number;
}

/** Backoff between LISTEN reconnection attempts: 250 ms doubling to 10 s, with jitter. */
function listenBackoffMs(attempt: number): number {
  const base = Math.min(10_000, 250 * 2 ** attempt);
  return Math.round(base / 2 + Math.random() * (base / 2));
}

let pgLoaded: Promise<typeof pg> | undefined;

/**
 * The PostgreSQL driver, loaded by the first PostgreSQL database: a server on PGlite never
 * needs it, and loading it (it looks for Node's fetch as it loads) held up every start.
 */
export function loadPg(): Promise<typeof pg> {
  return (pgLoaded ??= import('pg').then(({ default: driver }) => {
    // int8 (count(*), bigint columns) as JS numbers: our values stay far below 2^53.
    driver.types.setTypeParser(20, (v) => Number(v));
    return driver;
  }));
}

/** Statement names by SQL text; at most MAX_PREPARED, so each connection's set stays bounded. */
const statementNames = new Map<string, string>();
const MAX_PREPARED = 1000;

/**
 * A query as a named prepared statement: PostgreSQL parses and plans each text once per
 * connection instead of on every call, which on the scorekeepers' write path (five statements
 * a write) is a large share of the database's CPU. Texts past the bound (SQL built with varying
 * shapes) run unnamed, as before.
 */
function prepared(text: string, params?: unknown[]): pg.QueryConfig {
  // Without parameters the simple protocol runs the text, which may hold several statements
  // (migrations): those must stay unprepared.
  if (!params?.length) return { text };
  let name = statementNames.get(text);
  if (!name && statementNames.size < MAX_PREPARED) {
    name = `s${crypto.createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { text, values: params, name };
}

export async function openPostgres(url: string): Promise<Db> {
  const pg = await loadPg();
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const listeners = new Set<pg.Client>();
  const health = { down: new Set<pg.Client>(), reconnects: 0 };
  const db: Db = {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const r = await pool.query(prepared(sql, params));
      return r.rows as T[];
    },
    async tx(fn, opts) {
      const client = await pool.connect();
      // The pool stops listening for 'error' on a client it has lent out. A backend killed
      // between two queries of a transaction (57P01, admin shutdown, failover) emits 'error'
      // with no query to reject, and an unheard 'error' event ends the process: hold it here,
      // the next query fails anyway, and the broken client is dropped from the pool.
      let lost: Error | undefined;
      const onError = (err: Error) => {
        lost = err;
      };
      client.on('error', onError);
      try {
        await client.query(opts?.snapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ' : 'BEGIN');
        const tx = txHandle(
          async <T>(sql: string, params?: unknown[]) =>
            (await client.query(prepared(sql, params))).rows as T[],
        );
        const result = await fn(tx.q);
        await client.query('COMMIT');
        tx.committed();
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: unknown) => {
          lost ??= e instanceof Error ? e : new Error(String(e));
        });
        throw err;
      } finally {
        // A broken client is destroyed and may still report its end: keep listening to it.
        if (!lost) client.off('error', onError);
        client.release(lost);
      }
    },
    async listen(channel, onPayload, onReconnect) {
      let client: pg.Client | null = null;
      let stopped = false;
      let attempt = 0;
      let timer: NodeJS.Timeout | null = null;

      // Resolves once LISTEN is in place; throws only on the first connection, so a server
      // that cannot reach its database at all still fails at start with a clear error.
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url });
        c.on('notification', (n) => {
          if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
        });
        c.on('error', () => undefined); // 'end' follows and schedules the reconnect
        try {
          await c.connect();
          await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        } catch (err) {
          await c.end().catch(() => undefined);
          throw err;
        }
        c.once('end', () => {
          listeners.delete(c);
          if (stopped) return;
          health.down.add(c);
          scheduleReconnect(c);
        });
        client = c;
        listeners.add(c);
      };
      const scheduleReconnect = (lost: pg.Client) => {
        timer = setTimeout(() => {
          timer = null;
          if (stopped) return;
          connect().then(
            () => {
              attempt = 0;
              health.down.delete(lost);
              health.reconnects++;
              // NOTIFYs sent while we were away are gone: the caller refreshes what it serves.
              onReconnect?.();
            },
            () => {
              attempt++;
              scheduleReconnect(lost);
            },
          );
        }, listenBackoffMs(attempt));
        timer.unref();
      };

      await connect();
      return async () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        health.down.clear();
        if (client) await (client as pg.Client).end().catch(() => undefined);
      };
    },
    async notify(q, channel, payload) {
      await q.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    listenHealth: () => ({
      state: health.down.size ? 'down' : 'up',
      reconnects: health.reconnects,
    }),
    dumpDataDir() {
      return Promise.reject(new Error('A PostgreSQL database is backed up with pg_dump'));
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async close() {
      health.down.clear();
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await pool.end();
    },
  };
  return db;
}

/** The database a server's configuration names: PostgreSQL at its URL, else PGlite in its folder. */
export function openConfigured(config: {
  databaseUrl: string | undefined;
  dataDir: string;
  pgliteThread: PgliteThread;
}) {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl)
    : openPglite(config.dataDir, { thread: config.pgliteThread });
}

/**
 * PGlite does not lock its data folder, and two processes writing one folder corrupt it
 * (DESIGN §2), so we hold a lock file with our pid and refuse to start beside a live owner.
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'sagan.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The data folder ${dir} is in use by another Sagan process (pid ${owner}). ` +
            'Stop it first, or give this one its own DATA_DIR.',
          { cause: err },
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock of a dead process
    }
  }
  throw new Error(`Could not lock the data folder ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Where the embedded database runs: in a thread of its own, or in the server's (config.ts
 * pgliteThreadFor chooses for `auto`).
 */
export type PgliteThread = 'worker' | 'main';

/**
 * The listeners of a PGlite database's notify(), in this process. listen() on PGlite adds each
 * listener here and to PostgreSQL's own LISTEN, which still hears a NOTIFY written in SQL.
 */
function localNotifications() {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  return {
    add(channel: string, onPayload: (payload: string) => void): () => void {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set.add(onPayload));
      return () => set.delete(onPayload);
    },
    notify(q: Queryable, channel: string, payload: string): Promise<void> {
      afterCommit(q, () => {
        for (const onPayload of listeners.get(channel) ?? []) onPayload(payload);
      });
      return Promise.resolve();
    },
  };
}

/**
 * The embedded database, by default in a thread of its own (pglite-worker.ts), so that HTTP
 * and WebSocket work never waits on a query and another core runs the database. Each statement
 * pays two hand-offs between threads, which on a box of one or two cores wait for a core:
 * `thread: 'main'` runs PGlite in this thread instead (config.ts pgliteThreadFor chooses for a
 * server). dataDir undefined = in memory (tests), or loaded from `options.loadDataDir`.
 */
export async function openPglite(
  dataDir?: string,
  { thread = 'worker', ...options }: PgliteOptions & { thread?: PgliteThread } = {},
): Promise<Db> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => undefined;
  const workerOptions = {
    sharedBuffers: PGLITE_SHARED_BUFFERS,
    ...options,
    ...(dataDir ? { dataDir: path.join(dataDir, 'pglite') } : {}),
  };
  try {
    if (workerOptions.dataDir && !fs.existsSync(path.join(workerOptions.dataDir, 'PG_VERSION'))) {
      await initdbOnce(workerOptions);
    }
    return thread === 'main'
      ? await pgliteMainDb(workerOptions, unlock)
      : await pgliteWorkerDb(workerOptions, unlock);
  } catch (err) {
    unlock();
    throw err;
  }
}

type PgliteOptions = Omit<WorkerOptions, 'dataDir'>;

/** PGlite in this thread, started as its thread starts it; loaded only when chosen. */
async function pgliteMainDb(options: WorkerOptions, onClose: () => void): Promise<Db> {
  const [{ startPglite }, { pgliteStatements }] = await Promise.all([
    import('./pglite-start.ts'),
    import('./pglite-prepared.ts'),
  ]);
  const pglite = startPglite(options);
  try {
    await pglite.waitReady;
  } catch (err) {
    await pglite.close().catch(() => undefined);
    throw err;
  }
  return pgliteDb(pglite, pgliteStatements(pglite), onClose);
}

/**
 * How long the main thread may wait blocked on the database's thread (its transactions'
 * statements) in one turn of the event loop before the next transaction waits for a turn: the
 * server's own target for the event loop's delay is 20 ms at p99.
 */
const TURN_BUDGET_MS = 10;

/**
 * Transactions let in one at a time, each only while the database's time on this thread since
 * its event loop last turned is within TURN_BUDGET_MS. Writes that arrive together (a port's
 * queued replies, the requests of one poll for I/O, a promise's waiters) would otherwise run
 * back to back without the loop turning in between: no timer, no socket read, until the last
 * has committed, every request that came meanwhile waiting out the whole of it, and more of
 * them arriving together next time. Past the budget the next one waits for the next turn.
 */
function txAdmissions(held: () => boolean = () => false) {
  let open = false;
  const waiting: Array<() => void> = [];
  let spentMs = 0;
  let reset: NodeJS.Immediate | undefined;
  let gate: NodeJS.Immediate | undefined;
  const admitNext = (): void => {
    if (open || held() || !waiting.length) return;
    if (spentMs >= TURN_BUDGET_MS) {
      // An immediate set now runs after the next poll for I/O.
      gate ??= setImmediate(() => {
        gate = undefined;
        spentMs = 0;
        admitNext();
      });
      return;
    }
    open = true;
    waiting.shift()!();
  };
  return {
    /** Resolves once the caller's transaction may begin: the caller then holds it open. */
    async enter(): Promise<void> {
      if (open || held() || waiting.length || spentMs >= TURN_BUDGET_MS) {
        await new Promise<void>((admitted) => {
          waiting.push(admitted);
          admitNext();
        });
      } else open = true;
    },
    /** The open transaction no longer holds the database: the next may begin. */
    leave(): void {
      open = false;
      admitNext();
    },
    /** What `held` said no to may have changed. */
    admitNext,
    /** Counts ms of this thread's time spent on the database in this turn. */
    spend(ms: number): void {
      spentMs += ms;
      // Immediates scheduled now run after this turn's (or, from one, the next turn's) I/O.
      reset ??= setImmediate(() => {
        reset = undefined;
        spentMs = 0;
      });
    },
    /** What is left of this turn's budget. */
    budgetLeft(): number {
      return TURN_BUDGET_MS - spentMs;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/** The most transactions PGlite runs as one (group commit: pgliteDb). */
const MAX_GROUP = 8;

/** A source of one item, then none. */
function oneOf<T>(item: T): () => T | undefined {
  let given = false;
  return () => (given ? undefined : ((given = true), item));
}

interface GroupedTx {
  fn: (q: Queryable) => Promise<unknown>;
  resolve: (answer: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * PGlite starts PostgreSQL with shared_buffers at 128 MB, resident from the start: most of an
 * idle server's memory. A club's database is a few MB and the operating system caches its
 * files anyway; 16 MB (2,048 pages) holds its working set many times over.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * The worker's entry beside this module: the compiled file in a build; from source, the
 * TypeScript file behind a bootstrap that registers the loader first (Node 20 does not apply
 * `--import` hooks to a thread's entry module).
 */
function workerEntry(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./pglite-worker.js', import.meta.url);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const entry = new URL('./pglite-worker.ts', import.meta.url).href;
  const code = `const { tsImport } = await import(${JSON.stringify(tsx.replace(/\.cjs$/, '.mjs'))}); await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/**
 * A new folder's initdb and first migrations peak far above what the database needs
 * afterwards, and neither a thread nor the process gives all of that memory back: they run in
 * a short-lived process of its own, which has exited before the server answers anyone. The
 * folder comes back created and migrated.
 */
async function initdbOnce(options: WorkerOptions): Promise<void> {
  const source = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./pglite-worker.${source ? 'ts' : 'js'}`, import.meta.url));
  const loader = source
    ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
    : [];
  const child = spawn(process.execPath, [...loader, entry, JSON.stringify(options)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`PGlite could not create its data folder:\n${stderr}`);
}

async function pgliteWorkerDb(options: WorkerOptions, onClose: () => void): Promise<Db> {
  const channel = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerEntry(), {
    workerData: { ...options, sync: { port: channel.port2, flag } },
    transferList: [channel.port2],
  });
  const syncPort = channel.port1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const listeners = new Map<number, (payload: string) => void>();
  const notifications = localNotifications();
  /**
   * A commit's NOTIFYs reach this thread before the commit's answer does. They wait until the
   * committing transaction's after-commit work has run, as with PGlite in this thread, so what
   * a writer keeps for its own notifications (the hub's merges) is there when they arrive.
   * Commits are sent one behind another without waiting, so each keeps its own: a NOTIFY
   * belongs to the oldest commit not yet answered (the thread answers in order), and is
   * delivered once that commit and every one before it has done its after-commit work. One
   * count for all of them held every NOTIFY for as long as commits kept overlapping: on a busy
   * server, for as long as it stayed busy.
   */
  interface Commit {
    id: number;
    answered: boolean;
    released: boolean;
    held: Array<() => void>;
  }
  const commits: Commit[] = [];
  const releaseCommit = (commit: Commit) => {
    commit.released = true;
    while (commits[0]?.released) for (const deliver of commits.shift()!.held) deliver();
  };
  let nextId = 1;
  let stopped: Error | undefined;

  const fail = (err: Error) => {
    stopped ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (reply: Reply) => {
    if (trace) count('notify' in reply ? 'notifies' : 'replies');
    if ('notify' in reply) {
      const deliver = () => listeners.get(reply.notify)?.(reply.payload);
      // With every commit answered, one still doing its after-commit work keeps the order.
      const owner = commits.find((c) => !c.answered) ?? commits.at(-1);
      if (owner) {
        if (trace) count('held');
        owner.held.push(deliver);
      } else deliver();
      return;
    }
    const commit = commits.find((c) => c.id === reply.id);
    if (commit) commit.answered = true;
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    // The thread keeps the process alive only while a caller waits on it, as PGlite did.
    if (!pending.size) worker.unref();
    if (reply.ok) p.resolve(reply.value);
    else p.reject(Object.assign(new Error(reply.error.message), reply.error));
  });
  worker.on('error', (err) => fail(err));
  worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));

  /** A dump holds PGlite for seconds: transactions wait for it here, without blocking. */
  let dumping = 0;
  /**
   * PGlite runs one transaction at a time: while one is open (begun, its commit not yet sent),
   * another waits here, not in the thread, to begin as soon as it ends. The turn's budget counts
   * what this thread has waited blocked.
   */
  const admissions = txAdmissions(() => dumping > 0);

  /**
   * A transaction's statements are answered while this thread waits, blocked: the transaction
   * then holds the database only for its statements' own time. Answered through the event
   * loop, each statement's reply queued behind every socket's work first, and on a busy core
   * (or one core shared with the database's thread) a write's five round trips held the
   * database for tens of milliseconds while it sat idle, and every other write queued behind.
   * Only what the thread answers without this one's help is waited for so: a transaction
   * begins only when no other transaction or dump is open (see admissions); a begin waits only
   * for queries sent before it and the commit of the transaction before it.
   */
  const requestSync = <T>(req: DistributiveOmit<Request, 'id'>, id = nextId++): T => {
    const waitStart = performance.now();
    try {
      return requestSyncNow<T>(req, id);
    } finally {
      const waited = performance.now() - waitStart;
      admissions.spend(waited);
      if (trace) {
        count('blockedMs', waited);
        count('sync');
        if (waited > 3) trace('blocked', waitStart, { op: opName(req), ms: +waited.toFixed(1) });
      }
    }
  };

  const requestSyncNow = <T>(req: DistributiveOmit<Request, 'id'>, id: number): T => {
    const gone = () => {
      fail(new Error('the database thread stopped'));
      return stopped!;
    };
    if (stopped) throw stopped;
    // 2 (the thread has exited) stays: the exit event may not have reached this thread yet.
    if (Atomics.compareExchange(flag, 0, 1, 0) === 2) throw gone();
    worker.postMessage({ ...req, id, sync: true });
    for (;;) {
      Atomics.wait(flag, 0, 0);
      const reply = receiveMessageOnPort(syncPort)?.message as Reply | undefined;
      if (reply && !('notify' in reply) && reply.id === id) {
        Atomics.compareExchange(flag, 0, 1, 0);
        if (reply.ok) return reply.value as T;
        throw Object.assign(new Error(reply.error.message), reply.error);
      }
      if (Atomics.load(flag, 0) === 2) throw gone();
    }
  };

  const request = <T>(req: DistributiveOmit<Request, 'id'>, id = nextId++): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    return new Promise<T>((resolve, reject) => {
      if (trace) {
        const sent = performance.now();
        const res = resolve;
        resolve = (v) => {
          const ms = performance.now() - sent;
          if (ms > 10) trace!('async', sent, { op: opName(req), ms: +ms.toFixed(1) });
          res(v);
        };
      }
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.ref();
      if (id !== 0) worker.postMessage({ ...req, id });
    });
  };

  try {
    await request({ op: 'call', method: 'waitReady', args: [] }, 0);
  } catch (err) {
    await worker.terminate();
    throw err;
  }

  return {
    kind: 'pglite',
    query: <T>(sql: string, params?: unknown[]) => request<T[]>({ op: 'query', sql, params }),
    async tx(fn, opts) {
      const asked = performance.now();
      await admissions.enter();
      const ms = performance.now() - asked;
      if (trace && ms > 5)
        trace('admitted', asked, { ms: +ms.toFixed(1), queue: admissions.waiting });
      let open = true;
      const close = () => {
        if (!open) return;
        open = false;
        admissions.leave();
      };
      try {
        // The transaction begins with its first statement, in one round trip: its id is that
        // request's. One that runs no statement never begins.
        let txId: number | undefined;
        const tx = txHandle(async <T>(sql: string, params?: unknown[]) => {
          if (txId !== undefined) return requestSync<T[]>({ op: 'txQuery', tx: txId, sql, params });
          txId = nextId++;
          return requestSync<T[]>({ op: 'begin', snapshot: !!opts?.snapshot, sql, params }, txId);
        });
        let result;
        try {
          result = await fn(tx.q);
        } catch (err) {
          // Nothing here waits for the rollback: the thread runs it before anything sent later.
          // Its own failure is dropped; the first error says what went wrong.
          if (txId !== undefined)
            request({ op: 'end', tx: txId, commit: false }).catch(() => undefined);
          throw err;
        }
        if (txId === undefined) {
          tx.committed();
          return result;
        }
        const commit: Commit = { id: nextId++, answered: false, released: false, held: [] };
        commits.push(commit);
        try {
          // The commit (its WAL flush, the costliest step of a write) is not waited for blocked:
          // this thread serves sockets meanwhile, on the other core. The thread runs requests in
          // the order sent, so the next transaction may be sent now: it begins once this one has
          // committed, and its first answer waits for both, in one hand-off instead of two.
          // The caller is answered only once the commit is durable.
          const committed = request({ op: 'end', tx: txId, commit: true }, commit.id);
          close();
          await committed;
          tx.committed();
        } finally {
          releaseCommit(commit);
        }
        if (trace) {
          count('tx');
          const ms = performance.now() - asked;
          if (ms > 10) trace('tx', asked, { ms: +ms.toFixed(1) });
        }
        return result;
      } finally {
        close();
      }
    },
    // In one process: there is no connection to lose.
    async listen(channel, onPayload) {
      const id = nextId++;
      listeners.set(id, onPayload);
      await request({ op: 'listen', channel }, id).catch((err: unknown) => {
        listeners.delete(id);
        throw err;
      });
      const local = notifications.add(channel, onPayload);
      return async () => {
        local();
        listeners.delete(id);
        if (!stopped) await request({ op: 'unlisten', listenId: id });
      };
    },
    notify: notifications.notify,
    listenHealth: () => ({ state: 'up', reconnects: 0 }),
    async dumpDataDir() {
      dumping++;
      try {
        const dump = await request<Omit<DataDirDump, 'pgliteVersion'>>({ op: 'dump' });
        return { ...dump, pgliteVersion: pgliteVersion() };
      } finally {
        dumping--;
        admissions.admitNext();
      }
    },
    async close() {
      if (!stopped) await request({ op: 'call', method: 'close', args: [] });
      stopped ??= new Error('the database is closed');
      await worker.terminate();
      onClose();
    },
  };
}

/** A request as the trace names it: its op, and a query's first words. */
function opName(req: DistributiveOmit<Request, 'id'>): string {
  return 'sql' in req ? `${req.op} ${sqlLabel(req.sql)}` : req.op;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The Db over a PGlite instance that is ready; `onClose` runs after PGlite has closed. */
export function pgliteDb(
  pglite: PGlite,
  statements: PgliteStatements,
  onClose: () => void = () => undefined,
): Db {
  /**
   * PGlite runs one transaction at a time, each statement holding this thread until it ends,
   * and hands the next waiting transaction its turn through a promise: without the event loop
   * turning. Transactions are let in here instead. The turn's budget counts each transaction's
   * time from begin to commit.
   */
  const admissions = txAdmissions();
  const notifications = localNotifications();
  /** Holds the database, admitted, while run runs; counts its time against the turn. */
  const admitted = async <T>(run: () => Promise<T>): Promise<T> => {
    await admissions.enter();
    const started = performance.now();
    try {
      return await run();
    } finally {
      const ms = performance.now() - started;
      admissions.spend(ms);
      admissions.leave();
      if (trace) {
        count('tx');
        count('txMs', ms);
      }
    }
  };
  /**
   * Runs fns in turn in one transaction, each with a handle of its own, taking the next while
   * next() gives one; once committed, each one's answer and what runs its after-commit work.
   */
  const inOneTransaction = async (
    next: () => ((q: Queryable) => Promise<unknown>) | undefined,
    opts?: { snapshot?: boolean },
  ): Promise<{ answers: unknown[]; committed: () => void }> => {
    const handles: Array<ReturnType<typeof txHandle>> = [];
    const answers = await pglite.transaction(async (t) => {
      if (opts?.snapshot) await t.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const out: unknown[] = [];
      for (let fn = next(); fn; fn = next()) {
        const tx = txHandle(<T>(sql: string, params?: unknown[]) =>
          statements.txQuery<T>(t, sql, params),
        );
        handles.push(tx);
        out.push(await fn(tx.q));
      }
      return out;
    });
    return { answers, committed: () => handles.forEach((tx) => tx.committed()) };
  };
  const alone = async (fn: (q: Queryable) => Promise<unknown>, opts?: { snapshot?: boolean }) => {
    const done = await inOneTransaction(oneOf(fn), opts);
    done.committed();
    return done.answers[0];
  };
  /**
   * Group commit: the transactions asked for while the database was busy, or in one turn of
   * the event loop (the requests of one poll for I/O), run in one transaction, each in turn as
   * if alone, while the turn's budget lasts. A transaction's own cost on PGlite (its begin and
   * commit, their trips through the protocol) is about a fifth of a score write's, and each
   * write's statements find PGlite's caches warm from the one before.
   */
  const asked: GroupedTx[] = [];
  let running = false;
  /**
   * Runs the writes take() gives in one transaction and settles each. When one throws, it gets
   * its own refusal and the transaction rolls back: the writes before it run again, without
   * it (those after it were not taken). When the commit itself fails, each runs again alone.
   */
  const runGroup = async (take: () => GroupedTx | undefined): Promise<void> => {
    const group: GroupedTx[] = [];
    let failed: GroupedTx | undefined;
    const next = () => {
      const w = take();
      if (!w) return undefined;
      group.push(w);
      return async (q: Queryable) => {
        try {
          return await w.fn(q);
        } catch (err) {
          failed = w;
          throw err;
        }
      };
    };
    let done: Awaited<ReturnType<typeof inOneTransaction>>;
    try {
      done = await inOneTransaction(next);
    } catch (err) {
      if (failed) {
        failed.reject(err);
        const before = group.filter((w) => w !== failed);
        if (before.length) await runGroup(() => before.shift());
      } else if (group.length === 1) {
        group[0]!.reject(err);
      } else {
        for (const w of group) await runGroup(oneOf(w));
      }
      return;
    }
    // Committed: nothing runs again past this point. After-commit work that throws is said
    // to the callers, as it was when each write had a transaction of its own.
    try {
      done.committed();
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    group.forEach((w, i) => w.resolve(done.answers[i]));
  };
  const runGroups = async (): Promise<void> => {
    while (asked.length) {
      await admitted(async () => {
        const started = performance.now();
        const budget = admissions.budgetLeft();
        let taken = 0;
        await runGroup(() => {
          const full = taken >= MAX_GROUP || (taken > 0 && performance.now() - started >= budget);
          if (full || !asked.length) return undefined;
          taken++;
          return asked.shift();
        });
      });
    }
    // In the same step as the loop's last look at `asked`: a write asked for after it starts
    // the next run.
    running = false;
  };
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      if (trace) count('query');
      return statements.query<T>(sql, params);
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>, opts?: { snapshot?: boolean }): Promise<T> {
      // A snapshot's transaction is set apart (its isolation level, SET LOCAL): it runs alone.
      if (opts?.snapshot) return (await admitted(() => alone(fn, opts))) as T;
      return new Promise<T>((resolve, reject) => {
        asked.push({ fn, resolve: resolve as (answer: unknown) => void, reject });
        if (running) return;
        running = true;
        setImmediate(() => void runGroups());
      });
    },
    // In-process: there is no connection to lose.
    async listen(channel, onPayload) {
      const unsub = await pglite.listen(channel, onPayload);
      const local = notifications.add(channel, onPayload);
      return async () => {
        local();
        await unsub();
      };
    },
    notify: notifications.notify,
    listenHealth: () => ({ state: 'up', reconnects: 0 }),
    async dumpDataDir() {
      // Inside a transaction no other statement or transaction runs (PGlite serialises them),
      // so the digests and the files describe one moment; writes queue meanwhile.
      return pglite.transaction(async (t) => {
        const started = performance.now();
        const moment = await momentOf({
          query: async <T>(sql: string, params?: unknown[]) => (await t.query<T>(sql, params)).rows,
        });
        // Dirty pages reach the files first, so the copy opens without replaying the log.
        await t.query('CHECKPOINT');
        const blob = await pglite.dumpDataDir('none');
        return {
          tar: new Uint8Array(await blob.arrayBuffer()),
          moment,
          pgliteVersion: pgliteVersion(),
          heldMs: Math.round(performance.now() - started),
        };
      });
    },
    async close() {
      await pglite.close();
      onClose();
    },
  };
}
