import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { afterCommit, openPglite, type Db } from '../src/db/db.ts';
import { turnsDuring } from './helpers.ts';

// The embedded database runs in a thread of its own (db.ts openPglite): these check what the
// rest of the server relies on across that boundary.
describe('PGlite in its own thread', () => {
  let db: Db;
  beforeAll(async () => {
    const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
    db = await openPglite(undefined, { loadDataDir: template });
    await db.query('CREATE TABLE worker_t (id int PRIMARY KEY, at timestamptz, data bytea)');
  }, 60_000);
  afterAll(() => db?.close());

  it("runs with the small shared_buffers a club needs, not PGlite's 128 MB", async () => {
    const [row] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(row?.shared_buffers).toBe('16MB');
  });

  it('keeps the event loop turning while a query runs', async () => {
    // On the main thread the whole sleep would pass inside one turn: no turn until it ends.
    expect(await turnsDuring(db)).toBe(5);
  });

  it('returns values with their types, and errors with their fields', async () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    await db.query('INSERT INTO worker_t VALUES (1, $1, $2)', [at, new Uint8Array([7, 8])]);
    const [row] = await db.query<{ at: Date; data: Uint8Array; n: number }>(
      'SELECT at, data, count(*) OVER ()::int AS n FROM worker_t',
    );
    expect(row?.at).toEqual(at);
    expect(row?.data).toEqual(new Uint8Array([7, 8]));
    expect(row?.n).toBe(1);
    const err = await db.query('INSERT INTO worker_t (id) VALUES (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 'worker_t_pkey' });
  });

  it('commits a transaction whole, rolls a failed one back, and delivers NOTIFY on commit', async () => {
    const heard: string[] = [];
    const unlisten = await db.listen('worker_ch', (p) => heard.push(p));
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO worker_t (id) VALUES (2)');
        await q.query(`NOTIFY worker_ch, 'lost'`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A failed statement inside also rolls the earlier ones back.
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO worker_t (id) VALUES (3)');
        await q.query('INSERT INTO worker_t (id) VALUES (1)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const result = await db.tx(async (q) => {
      await q.query('INSERT INTO worker_t (id) VALUES (4)');
      await q.query(`NOTIFY worker_ch, 'kept'`);
      return 'ok';
    });
    expect(result).toBe('ok');
    const ids = await db.query<{ id: number }>('SELECT id FROM worker_t ORDER BY id');
    expect(ids.map((r) => r.id)).toEqual([1, 4]);
    await db.query('SELECT 1'); // a round trip after the commit: its notification came first
    expect(heard).toEqual(['kept']);
    await unlisten();
    await db.query(`NOTIFY worker_ch, 'after'`);
    await db.query('SELECT 1');
    expect(heard).toEqual(['kept']);
  });

  it('begins a transaction with its first statement, and rolls it back if that fails', async () => {
    await expect(
      db.tx((q) => q.query('INSERT INTO worker_t (id) VALUES (1), (1)')),
    ).rejects.toMatchObject({ code: '23505' });
    const rows = await db.tx((q) =>
      q.query<{ n: number }>('SELECT count(*)::int AS n FROM worker_t WHERE id = 1'),
    );
    expect(rows[0]?.n).toBe(1);
    // A BEGIN of its own would be one more blocked round trip on every write, here waiting out
    // a query already in the thread's queue; a transaction that runs no statement sends none.
    let slept = false;
    const sleeping = db.query('SELECT pg_sleep(0.3)').then(() => (slept = true));
    expect(await db.tx(() => Promise.resolve('none'))).toBe('none');
    await new Promise((resolve) => setImmediate(resolve));
    expect(slept).toBe(false);
    await sleeping;
  });

  it("runs a lone transaction's statements without giving the event loop a turn", async () => {
    // A statement answered through the event loop waits behind every socket's work while the
    // transaction holds the database idle; the thread answers a transaction's statements while
    // this one waits for them.
    let turned = false;
    setImmediate(() => (turned = true));
    let turnedBeforeCommit: boolean | undefined;
    const seen = await db.tx(async (q) => {
      await q.query('INSERT INTO worker_t (id) VALUES (10)');
      const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM worker_t');
      await q.query('DELETE FROM worker_t WHERE id = 10');
      turnedBeforeCommit = turned;
      return rows[0]?.n;
    });
    expect(turnedBeforeCommit).toBe(false);
    expect(seen).toBeGreaterThan(0);
  });

  it('serves the event loop while a commit runs, and answers only once it has committed', async () => {
    // A trigger deferred to commit makes the commit itself slow (0.3 s), as a WAL flush on a
    // slow disk would be.
    await db.query(`CREATE TABLE slow_commit (id int PRIMARY KEY)`);
    await db.query(`CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$`);
    await db.query(`CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON slow_commit
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()`);
    let turns = 0;
    let committed = false;
    const written = db
      .tx(async (q) => {
        await q.query('INSERT INTO slow_commit VALUES (1)');
        afterCommit(q, () => (committed = true));
      })
      .then(() => turns);
    while (!committed && turns < 5) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(turns).toBe(5);
    expect(committed).toBe(false);
    expect(await written).toBe(5);
    expect(committed).toBe(true);
    // The next transaction, sent while the commit ran, saw it committed.
    const next = db.tx((q) => q.query<{ n: number }>('SELECT count(*)::int AS n FROM slow_commit'));
    expect((await next)[0]?.n).toBe(1);
  });

  it('rejects a transaction whose commit fails, with no after-commit work and no NOTIFY', async () => {
    await db.query(`CREATE TABLE commit_checked (id int PRIMARY KEY,
      parent int REFERENCES commit_checked DEFERRABLE INITIALLY DEFERRED)`);
    const heard: string[] = [];
    const unlisten = await db.listen('commit_ch', (p) => heard.push(p));
    let hooked = false;
    const failed = await db
      .tx(async (q) => {
        // Refused only at commit: the parent does not exist.
        await q.query('INSERT INTO commit_checked VALUES (1, 99)');
        await q.query(`NOTIFY commit_ch, 'lost'`);
        afterCommit(q, () => (hooked = true));
      })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: '23503' });
    expect(hooked).toBe(false);
    await db.tx(async (q) => {
      await q.query('INSERT INTO commit_checked VALUES (2, NULL)');
      await q.query(`NOTIFY commit_ch, 'kept'`);
    });
    await db.query(`NOTIFY commit_ch, 'after'`);
    await expect.poll(() => heard).toEqual(['kept', 'after']);
    await unlisten();
    const ids = await db.query<{ id: number }>('SELECT id FROM commit_checked');
    expect(ids).toEqual([{ id: 2 }]);
  });

  it("delivers each commit's NOTIFY after its own after-commit work, not after the last of a busy run", async () => {
    // Commits go out one behind another without waiting: while writes keep coming, there is
    // always one in flight. A NOTIFY waits for its own commit's after-commit work only.
    const order: string[] = [];
    const unlisten = await db.listen('busy_ch', (p) => order.push(`heard ${p}`));
    const n = 8;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        db.tx(async (q) => {
          await q.query(`NOTIFY busy_ch, '${i}'`);
          afterCommit(q, () => order.push(`kept ${i}`));
        }),
      ),
    );
    await db.query('SELECT 1'); // a round trip after the last commit: its notification came first
    await unlisten();
    const at = (entry: string) => order.indexOf(entry);
    for (let i = 0; i < n; i++) {
      expect(at(`kept ${i}`), order.join(', ')).toBeGreaterThanOrEqual(0);
      expect(at(`heard ${i}`), order.join(', ')).toBeGreaterThan(at(`kept ${i}`));
    }
    // The first write's notification was not held until the run was over.
    expect(at('heard 0'), order.join(', ')).toBeLessThan(at(`kept ${n - 1}`));
  });

  it('gives the event loop a turn between transactions that become ready together', async () => {
    // Replies that arrive together are handled in one go, without the loop turning, and each
    // here starts a transaction that waits blocked for a statement longer than the turn's
    // budget. Without a turn between them no socket is read until the last has committed: on a
    // busy server that was seconds, every request that came meanwhile waiting it out.
    const n = 5;
    const finished: number[] = [];
    let finishedAtTurn = -1;
    const ready = Array.from({ length: n }, (_, i) =>
      db.query('SELECT 1').then(() =>
        db.tx(async (q) => {
          await q.query('SELECT pg_sleep(0.03)');
          finished.push(i);
        }),
      ),
    );
    // Waits blocked until the thread has answered every query above, so that their replies
    // are all queued for this thread when it next looks.
    await db.tx((q) => q.query('SELECT 1'));
    setImmediate(() => (finishedAtTurn = finished.length));
    await Promise.all(ready);
    expect(finishedAtTurn).toBeGreaterThanOrEqual(0);
    expect(finishedAtTurn).toBeLessThan(n);
    expect(finished).toEqual([0, 1, 2, 3, 4]);
  });

  it('lets a transaction begun while another is open wait for it without blocking this thread', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const first = db.tx(async (q) => {
      await q.query('INSERT INTO worker_t (id) VALUES (20)');
      inside();
      await held;
      await q.query('INSERT INTO worker_t (id) VALUES (21)');
      order.push('first');
    });
    await entered;
    const second = db.tx(async (q) => {
      const rows = await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM worker_t WHERE id IN (20, 21)',
      );
      order.push(`second saw ${rows[0]?.n}`);
    });
    // The second waits on this thread, not blocked: it keeps turning meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second saw 2']);
    await db.query('DELETE FROM worker_t WHERE id IN (20, 21)');
  });

  it('serialises a query outside a transaction behind the open transaction', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = db.tx(async (q) => {
      await q.query('INSERT INTO worker_t (id) VALUES (5)');
      inside();
      await held;
      order.push('commit');
    });
    await entered;
    const outside = db
      .query<{ n: number }>('SELECT count(*)::int AS n FROM worker_t WHERE id = 5')
      .then((r) => order.push(`read ${r[0]?.n}`));
    release();
    await Promise.all([tx, outside]);
    expect(order).toEqual(['commit', 'read 1']);
  });
});
