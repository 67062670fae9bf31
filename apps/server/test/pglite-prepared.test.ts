import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite, type Db, type PgliteThread } from '../src/db/db.ts';

// A statement PGlite runs is parsed and planned once, as a named prepared statement of its one
// session, and each call after that is a single round trip (pglite-prepared.ts). These check
// that it is so and that nothing a caller sees changed: rows and their types, errors, the
// transactions' isolation from statements outside them.
describe.each<PgliteThread>(['main', 'worker'])('PGlite statements on the %s thread', (thread) => {
  let db: Db;
  beforeAll(async () => {
    const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
    db = await openPglite(undefined, { loadDataDir: template, thread });
    await db.query('CREATE TABLE prep_t (k text PRIMARY KEY, n int8, doc jsonb, tags text[])');
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  const prepared = async (fragment: string) =>
    (
      await db.query<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'
           AND statement NOT LIKE '%pg_prepared_statements%'`,
        [fragment],
      )
    ).map((r) => r.statement);

  it('prepares a text once, however often it runs, in and out of transactions', async () => {
    const insert = 'INSERT INTO prep_t (k, n, doc, tags) VALUES ($1, $2, $3::jsonb, $4)';
    for (let i = 0; i < 5; i++) await db.query(insert, [`k${i}`, i, JSON.stringify({ i }), ['a']]);
    await db.tx(async (q) => {
      await q.query(insert, ['k5', 5, '{"i":5}', ['b', 'c']]);
      await q.query(insert, ['k6', 6, '{"i":6}', []]);
    });
    expect(await prepared('INSERT INTO prep_t')).toEqual([insert]);
    const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM prep_t');
    expect(count?.n).toBe(7);
  });

  it('gives rows with the same types as PGlite’s own query', async () => {
    await db.query('INSERT INTO prep_t (k, n, doc, tags) VALUES ($1, $2, $3, $4)', [
      'typed',
      2 ** 40,
      { nested: { list: [1, 'two', null] } },
      ['x', 'y z', 'quote"d'],
    ]);
    const [row] = await db.query<Record<string, unknown>>(
      'SELECT k, n, doc, tags, n > $2 AS big, $3::text AS nothing FROM prep_t WHERE k = $1',
      ['typed', 1000, null],
    );
    expect(row).toEqual({
      k: 'typed',
      n: 2 ** 40,
      doc: { nested: { list: [1, 'two', null] } },
      tags: ['x', 'y z', 'quote"d'],
      big: true,
      nothing: null,
    });
    // A statement with no rows to give answers no rows; one with no parameters runs too.
    expect(await db.query('SELECT k FROM prep_t WHERE k = $1', ['absent'])).toEqual([]);
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('throws PostgreSQL’s error, keeps nothing of a text that did not parse, and goes on', async () => {
    await expect(db.query('SELEC k FROM prep_t WHERE k = $1', ['x'])).rejects.toThrow(/syntax/);
    expect(await prepared('SELEC k')).toEqual([]);
    const dup = 'INSERT INTO prep_t (k) VALUES ($1)';
    await db.query(dup, ['once']);
    await expect(db.query(dup, ['once'])).rejects.toMatchObject({ code: '23505' });
    // The failed statement left the session ready: the next one runs, and so does a transaction.
    expect(await db.query<{ k: string }>('SELECT k FROM prep_t WHERE k = $1', ['once'])).toEqual([
      { k: 'once' },
    ]);
    await expect(
      db.tx(async (q) => {
        await q.query(dup, ['in-tx']);
        await q.query(dup, ['once']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT k FROM prep_t WHERE k = $1', ['in-tx'])).toEqual([]);
  });

  it('runs a statement from outside a transaction after it, never inside it', async () => {
    let inside!: () => void;
    const holding = new Promise<void>((r) => (inside = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const tx = db
      .tx(async (q) => {
        await q.query('INSERT INTO prep_t (k) VALUES ($1)', ['rolled-back']);
        inside();
        await released;
        throw new Error('roll back');
      })
      .catch((err: unknown) => err);
    await holding;
    const outside = db.query('INSERT INTO prep_t (k) VALUES ($1)', ['outside']);
    release();
    expect(await tx).toBeInstanceOf(Error);
    await outside;
    const keys = await db.query<{ k: string }>(
      'SELECT k FROM prep_t WHERE k = ANY($1::text[]) ORDER BY k',
      [['rolled-back', 'outside']],
    );
    expect(keys).toEqual([{ k: 'outside' }]);
  });
});
