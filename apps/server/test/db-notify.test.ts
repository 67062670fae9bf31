import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { afterCommit, openPglite, type Db } from '../src/db/db.ts';
import { postgresKindIfAny } from './helpers.ts';

// Db.notify is how the server tells every node of a change: on PostgreSQL a NOTIFY, on PGlite
// a hand-off to this process's listeners (no other process can open its data folder). Either
// way a listener hears it once, only after the transaction commits, in commit order.

interface Opened {
  db: Db;
  cleanup(): Promise<void>;
}

const postgres = postgresKindIfAny();
const kinds: Array<[string, () => Promise<Opened>]> = [
  ...(['main', 'worker'] as const).map((thread): [string, () => Promise<Opened>] => [
    `PGlite on the ${thread} thread`,
    async () => {
      const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
      const db = await openPglite(undefined, { loadDataDir: template, thread });
      return { db, cleanup: () => db.close() };
    },
  ]),
  ...(postgres ? [['PostgreSQL', () => postgres.open()] as [string, () => Promise<Opened>]] : []),
];

describe.each(kinds)('Db.notify on %s', (_name, open) => {
  let opened: Opened;
  beforeAll(async () => {
    opened = await open();
  }, 60_000);
  afterAll(() => opened?.cleanup());

  /** A round trip after the last commit: a NOTIFY through the database arrives before it ends. */
  const settle = async (heard: string[], count: number) => {
    await expect.poll(() => heard.length).toBeGreaterThanOrEqual(count);
    await opened.db.query('SELECT 1');
    await new Promise((r) => setTimeout(r, 50));
  };

  it('is heard once the transaction commits, never when it rolls back, and once only', async () => {
    const { db } = opened;
    const heard: string[] = [];
    const unlisten = await db.listen('note_ch', (p) => heard.push(p));
    await expect(
      db.tx(async (q) => {
        await q.query('SELECT 1');
        await db.notify(q, 'note_ch', 'lost');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.tx(async (q) => {
      await q.query('SELECT 1');
      await db.notify(q, 'note_ch', 'kept');
      expect(heard).toEqual([]);
    });
    // Outside a transaction there is nothing to wait for.
    await db.notify(db, 'note_ch', 'at once');
    await settle(heard, 2);
    // listen() on PGlite also holds PostgreSQL's LISTEN for NOTIFYs written in SQL: a payload
    // that went through PostgreSQL as well would be heard twice.
    expect(heard).toEqual(['kept', 'at once']);
    await unlisten();
    await db.notify(db, 'note_ch', 'after');
    await db.query('SELECT 1');
    await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual(['kept', 'at once']);
  });

  it("hears every transaction's payload once, in the order they committed", async () => {
    const { db } = opened;
    const heard: string[] = [];
    const committed: string[] = [];
    const unlisten = await db.listen('order_ch', (p) => heard.push(p));
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        db.tx(async (q) => {
          await q.query('SELECT 1');
          await db.notify(q, 'order_ch', String(i));
          afterCommit(q, () => committed.push(String(i)));
        }),
      ),
    );
    await settle(heard, 6);
    await unlisten();
    expect([...heard].sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    // PGlite commits one transaction at a time, so the order is known here; PostgreSQL's pool
    // commits them side by side, and which COMMIT's answer is read first is not.
    if (db.kind === 'pglite') expect(heard).toEqual(committed);
  });
});
