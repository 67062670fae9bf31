import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { momentOf, type Moment } from './moment.ts';

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
  /** Runs fn in one transaction; NOTIFYs sent inside are delivered on commit. */
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
  /** The state of the LISTEN connections, for the health endpoint. */
  listenHealth(): ListenHealth;
  /**
   * PGlite only: its data folder as a tarball, with the moment it holds, taken while no other
   * statement runs (a copy of the folder made beside a running PGlite is not a backup).
   * PostgreSQL is backed up with pg_dump instead.
   */
  dumpDataDir(): Promise<DataDirDump>;
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

// int8 (count(*), bigint columns) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

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
    listenHealth: () => ({
      state: health.down.size ? 'down' : 'up',
      reconnects: health.reconnects,
    }),
    dumpDataDir() {
      return Promise.reject(new Error('A PostgreSQL database is backed up with pg_dump'));
    },
    async close() {
      health.down.clear();
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await pool.end();
    },
  };
  return db;
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

/** dataDir undefined = in memory (tests). */
export async function openPglite(dataDir?: string): Promise<Db> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => undefined;
  let pglite: PGlite;
  try {
    pglite = dataDir ? new PGlite(path.join(dataDir, 'pglite')) : new PGlite();
    await pglite.waitReady;
  } catch (err) {
    unlock();
    throw err;
  }
  return pgliteDb(pglite, unlock);
}

/** The Db over a PGlite instance that is ready; `onClose` runs after PGlite has closed. */
export function pgliteDb(pglite: PGlite, onClose: () => void = () => undefined): Db {
  // PGlite runs one query at a time; its transaction() already serialises callers.
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      return (await pglite.query<T>(sql, params)).rows;
    },
    async tx(fn, opts) {
      let tx: ReturnType<typeof txHandle> | undefined;
      const result = await pglite.transaction(async (t) => {
        if (opts?.snapshot) await t.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        tx = txHandle(
          async <T>(sql: string, params?: unknown[]) => (await t.query<T>(sql, params)).rows,
        );
        return fn(tx.q);
      });
      tx?.committed();
      return result;
    },
    // In-process: there is no connection to lose.
    async listen(channel, onPayload) {
      const unsub = await pglite.listen(channel, onPayload);
      return unsub;
    },
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
