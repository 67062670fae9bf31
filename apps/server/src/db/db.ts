import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; NOTIFYs sent inside are delivered on commit. */
  tx<T>(fn: (q: Queryable) => Promise<T>, opts?: { snapshot?: boolean }): Promise<T>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// int8 (count(*), bigint columns) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const listeners: pg.Client[] = [];
  const db: Db = {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const r = await pool.query(sql, params as unknown[]);
      return r.rows as T[];
    },
    async tx(fn, opts) {
      const client = await pool.connect();
      try {
        await client.query(opts?.snapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ' : 'BEGIN');
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) =>
            (await client.query(sql, params as unknown[])).rows as T[],
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on('notification', (n) => {
        if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
      });
      client.on('error', () => undefined);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        await client.end().catch(() => undefined);
      };
    },
    async close() {
      await Promise.all(listeners.map((c) => c.end().catch(() => undefined)));
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
  // PGlite runs one query at a time; its transaction() already serialises callers.
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      return (await pglite.query<T>(sql, params)).rows;
    },
    async tx(fn, opts) {
      return pglite.transaction(async (t) => {
        if (opts?.snapshot) await t.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        return fn({
          query: async <T>(sql: string, params?: unknown[]) => (await t.query<T>(sql, params)).rows,
        });
      });
    },
    async listen(channel, onPayload) {
      const unsub = await pglite.listen(channel, onPayload);
      return unsub;
    },
    async close() {
      await pglite.close();
      unlock();
    },
  };
}
