import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig, pgliteThreadFor } from '../src/config.ts';
import {
  afterCommit,
  openPglite,
  type Db,
  type PgliteThread,
  type Queryable,
} from '../src/db/db.ts';
import { API, buildTestApp, newGameOf, signInLocal, turnsDuring, useTempDir } from './helpers.ts';

describe('PGLITE_THREAD', () => {
  it('auto runs PGlite in a thread of its own only when three cores may run at once', () => {
    expect(pgliteThreadFor('auto', 1)).toBe('main');
    expect(pgliteThreadFor('auto', 2)).toBe('main');
    expect(pgliteThreadFor('auto', 3)).toBe('worker');
    expect(pgliteThreadFor('auto', 8)).toBe('worker');
    expect(pgliteThreadFor('main', 8)).toBe('main');
    expect(pgliteThreadFor('worker', 1)).toBe('worker');
  });

  it('is read from the environment, and a wrong value is refused', () => {
    expect(loadConfig({ PGLITE_THREAD: 'main' }).pgliteThread).toBe('main');
    expect(loadConfig({ PGLITE_THREAD: 'worker' }).pgliteThread).toBe('worker');
    expect(loadConfig({}).pgliteThread).toBe(pgliteThreadFor('auto'));
    expect(() => loadConfig({ PGLITE_THREAD: 'both' })).toThrow(/PGLITE_THREAD/);
  });
});

describe.each<PgliteThread>(['main', 'worker'])(
  'a server with PGlite on the %s thread',
  (thread) => {
    let db: Db;
    let app: FastifyInstance;
    beforeAll(async () => {
      const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
      db = await openPglite(undefined, { loadDataDir: template, thread });
      app = await buildTestApp(db);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await db?.close();
    });

    it('runs PGlite where it was asked, with the small shared_buffers either way', async () => {
      // In this thread a statement holds the event loop until it ends; in its own it does not.
      const turns = await turnsDuring(db);
      if (thread === 'main') expect(turns).toBeLessThan(5);
      else expect(turns).toBe(5);
      const [row] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
      expect(row?.shared_buffers).toBe('16MB');
    });

    it('gives the event loop a turn between transactions asked for together', async () => {
      // Requests read in one poll for I/O each start a write. Each here holds this thread (or
      // waits for the database's) longer than a turn's budget: run back to back, no timer
      // would fire and no socket be read until the last had committed.
      const n = 5;
      const finished: number[] = [];
      let finishedAtTurn = -1;
      const writes = Array.from({ length: n }, (_, i) =>
        db.tx(async (q) => {
          await q.query('SELECT pg_sleep(0.03)');
          finished.push(i);
        }),
      );
      setImmediate(() => (finishedAtTurn = finished.length));
      await Promise.all(writes);
      expect(finishedAtTurn).toBeGreaterThanOrEqual(1);
      expect(finishedAtTurn).toBeLessThan(n);
      expect(finished).toEqual([0, 1, 2, 3, 4]);
    });

    it('answers writes, rolls a failed transaction back, and dumps a backup that holds them', async () => {
      const keeper = await signInLocal(app, 'Keeper');
      const gameKey = await newGameOf(keeper, { gameName: 'Rockets v Comets', sportID: 2 });
      const tap = await keeper.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/events`,
        payload: { action: { kind: 'score', team: 'home', by: 2 }, device: 'phone-a' },
      });
      expect(tap.statusCode).toBe(200);
      const top = await app.inject({ url: `${API}/games/${gameKey}` });
      expect(top.json<{ top: { homeScore: number } }>().top.homeScore).toBe(2);

      await expect(
        db.tx(async (q) => {
          await q.query(
            `UPDATE games SET fields = fields || '{"gameName": "Lost"}' WHERE game_key = $1`,
            [gameKey],
          );
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const named = () =>
        db.query<{ name: string }>(
          `SELECT fields ->> 'gameName' AS name FROM games WHERE game_key = $1`,
          [gameKey],
        );
      expect((await named())[0]?.name).toBe('Rockets v Comets');

      const dump = await db.dumpDataDir();
      expect(dump.moment.tables.game_events?.rows).toBeGreaterThan(0);
      const copy = await openPglite(undefined, { loadDataDir: new Blob([dump.tar]), thread });
      try {
        const [row] = await copy.query<{ home_score: number }>(
          `SELECT (fields ->> 'homeScore')::int AS home_score FROM games WHERE game_key = $1`,
          [gameKey],
        );
        expect(row?.home_score).toBe(2);
      } finally {
        await copy.close();
      }
    });
  },
);

describe('group commit, PGlite on the main thread', () => {
  let db: Db;
  beforeAll(async () => {
    const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
    db = await openPglite(undefined, { loadDataDir: template, thread: 'main' });
    await db.query('CREATE TABLE group_probe (n int PRIMARY KEY)');
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });
  const txid = async (q: Queryable) =>
    (await q.query<{ id: string }>('SELECT txid_current()::text AS id'))[0]!.id;
  const probe = async () =>
    (await db.query<{ n: number }>('SELECT n FROM group_probe ORDER BY n')).map((r) => r.n);

  it('runs the writes asked for in one turn in one transaction, each seeing the one before', async () => {
    await db.query('DELETE FROM group_probe');
    const writes = [1, 2, 3].map((n) =>
      db.tx(async (q) => {
        const before = await q.query<{ c: number }>('SELECT count(*)::int AS c FROM group_probe');
        await q.query('INSERT INTO group_probe VALUES ($1)', [n]);
        return { id: await txid(q), before: before[0]!.c };
      }),
    );
    const answers = await Promise.all(writes);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(answers.map((a) => a.before)).toEqual([0, 1, 2]);
    expect(await probe()).toEqual([1, 2, 3]);
    // Asked for in later turns, each has a transaction of its own.
    const first = await db.tx(txid);
    const second = await db.tx(txid);
    expect(first).not.toBe(second);
  });

  it('takes at most eight writes in one transaction', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => db.tx(txid)));
    expect(new Set(ids.slice(0, 8)).size).toBe(1);
    expect(ids[8]).not.toBe(ids[0]);
  });

  it('a write that fails fails alone: the others commit once, and only their commits are heard', async () => {
    await db.query('DELETE FROM group_probe');
    const heard: number[] = [];
    const runs: number[] = [];
    const write = (n: number, fail?: 'refuse' | 'sql') =>
      db.tx(async (q) => {
        runs.push(n);
        afterCommit(q, () => heard.push(n));
        // A duplicate key breaks the transaction itself, not just this write's own code.
        await q.query('INSERT INTO group_probe VALUES ($1)', [fail === 'sql' ? 1 : n]);
        if (fail === 'refuse') throw new Error(`refused ${n}`);
        return n;
      });
    const results = await Promise.allSettled([
      write(1),
      write(2, 'refuse'),
      write(3, 'sql'),
      write(4),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      1,
      'Error: refused 2',
      expect.stringMatching(/duplicate key/),
      4,
    ]);
    expect(await probe()).toEqual([1, 4]);
    expect(heard).toEqual([1, 4]);
    // The group ran up to the refusal, which rolled 1 back: 1 ran again without 2. The writes
    // not yet taken made the next group, and 3, refused in it, did not run again.
    expect(runs).toEqual([1, 2, 1, 3, 4]);
  });
});

describe('PGlite on the main thread in a data folder', () => {
  const dir = useTempDir('sagan-pglite-main-');

  it('is created once, refused beside a live owner, and opens again with what it held', async () => {
    const lock = path.join(dir(), 'sagan.lock');
    // A live process other than us holds the lock (our parent is alive for sure).
    fs.writeFileSync(lock, String(process.ppid));
    await expect(openPglite(dir(), { thread: 'main' })).rejects.toThrow(
      /in use by another Sagan process/,
    );
    fs.rmSync(lock);
    const db = await openPglite(dir(), { thread: 'main' });
    try {
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
      await db.query("INSERT INTO users (uid, display_name) VALUES ('u1', 'Kept')");
    } finally {
      await db.close();
    }
    expect(fs.existsSync(lock)).toBe(false);
    const again = await openPglite(dir(), { thread: 'main' });
    try {
      const rows = await again.query<{ display_name: string }>(
        "SELECT display_name FROM users WHERE uid = 'u1'",
      );
      expect(rows).toEqual([{ display_name: 'Kept' }]);
    } finally {
      await again.close();
    }
  }, 120_000);
});
