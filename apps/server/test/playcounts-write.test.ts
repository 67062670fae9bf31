import { afterEach, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../src/db/db.ts';
import { databaseKinds, useTestApp } from './helpers.ts';
import { call, ok } from './playcounts-fixtures.ts';
import { randomKey } from './security-world.ts';

// A play count's snaps and undos go through the one write helper (lib/game-write.ts): the event
// row is the idempotency record, nothing goes to idempotency_keys, and a write costs fewer
// statements than with a key row beside it.
describe.each(databaseKinds())('play-count writes on the write helper ($name)', (kind) => {
  const t = useTestApp(kind, { users: ['Coach', 'Other'] });

  /** The lock of a count, as its first words. */
  const LOCK = 'SELECT g.*, (SELECT';
  const words = (sql: string) => sql.trim().split(/\s+/).slice(0, 3).join(' ');
  let restore: (() => void) | null = null;
  afterEach(() => restore?.());

  /**
   * The statements of each transaction the server runs while `run` runs (by their first
   * words), and those it sends outside one. Other work of the node (its heartbeat) may run
   * meanwhile: a test picks the write's transaction by its first statement.
   */
  async function statementsOf(run: () => Promise<unknown>) {
    const db: Db = t.db;
    const txs: string[][] = [];
    const plain: string[] = [];
    const { tx, query } = db;
    const counting = (q: Queryable) => {
      const seen: string[] = [];
      txs.push(seen);
      // The handle itself is kept (not wrapped): after-commit work is keyed by it.
      const inner = q.query.bind(q);
      q.query = <T>(sql: string, params?: unknown[]) => {
        seen.push(words(sql));
        return inner<T>(sql, params);
      };
      return q;
    };
    db.tx = <T>(fn: (q: Queryable) => Promise<T>, opts?: { snapshot?: boolean }) =>
      tx.call(db, (q) => fn(counting(q)), opts) as Promise<T>;
    db.query = <T>(sql: string, params?: unknown[]) => {
      plain.push(sql);
      return query.call(db, sql, params) as Promise<T[]>;
    };
    restore = () => {
      db.tx = tx;
      db.query = query;
      restore = null;
    };
    try {
      await run();
    } finally {
      restore();
    }
    return {
      /** The transactions that locked a play count: the write's own. */
      writes: txs.filter((statements) => statements[0] === LOCK),
      /** Statements outside a transaction that read or wrote a key or an event. */
      keyed: plain.filter((sql) => /idempotency_keys|playcount_events/.test(sql)),
    };
  }

  const coach = (method: 'POST' | 'DELETE', url: string, payload?: object, key?: string) =>
    call(t.users.Coach, method, url, payload, key);

  async function count() {
    const { teamKey } = await ok<{ teamKey: string }>(coach('POST', '/teams'));
    await ok(
      call(t.users.Coach, 'POST', `/teams/${teamKey}/players/bulk`, { text: '1 Ann\n2 Bo' }),
    );
    const { gameKey } = await ok<{ gameKey: string }>(
      coach('POST', '/playcounts', { teamKey, gameName: 'Eagles', gameDate: '2026-09-05' }),
    );
    const game = await ok<{ roster: Array<{ key: string }> }>(
      call(t.users.Coach, 'GET', `/playcounts/${gameKey}`),
    );
    return { gameKey, keys: game.roster.map((p) => p.key) };
  }
  const snap = (gameKey: string, players: string[], key?: string) =>
    coach('POST', `/playcounts/${gameKey}/snaps`, { quarter: 1, groupName: 'O', players }, key);
  const undo = (gameKey: string, key?: string) =>
    coach('DELETE', `/playcounts/${gameKey}/snaps/last`, undefined, key);
  const keyRows = async () =>
    Number(
      (
        await t.db.query<{ n: number | string }>(
          'SELECT count(*) AS n FROM idempotency_keys WHERE uid = $1',
          [t.users.Coach.uid],
        )
      )[0]!.n,
    );
  const eventsOf = (gameKey: string) =>
    t.db.query<{ event_id: string; uid: string; answer: unknown; fingerprint: string | null }>(
      'SELECT event_id, uid, answer, fingerprint FROM playcount_events WHERE game_key = $1 ORDER BY id',
      [gameKey],
    );

  it('a keyed snap or undo is three statements (seven with a key row), a replay one', async () => {
    const { gameKey, keys } = await count();
    const k = randomKey();
    // Before the helper: lock, last snap, key check, event, counts, topics, key row.
    expect(await statementsOf(() => ok(snap(gameKey, keys, k)))).toEqual({
      // The topics, in one statement: every seq, and on PostgreSQL every NOTIFY.
      writes: [
        [LOCK, 'WITH e AS', t.db.kind === 'pglite' ? 'INSERT INTO topic_seq' : 'WITH bumped AS'],
      ],
      keyed: [],
    });
    expect(await statementsOf(() => ok(snap(gameKey, keys, k)))).toEqual({
      writes: [[LOCK]],
      keyed: [],
    });
    const undone = await statementsOf(() => ok(undo(gameKey, randomKey())));
    expect(undone.writes.map((w) => w.length)).toEqual([3]);
    expect(undone.keyed).toEqual([]);
  });

  it('keeps the key on the event row: replays answer again, another request under it is 422', async () => {
    const { gameKey, keys } = await count();
    const keysBefore = await keyRows();
    const k = randomKey();
    expect((await snap(gameKey, [keys[0]!], k)).json()).toEqual({ snapCount: 1, snaps: 1 });
    const stored = (await eventsOf(gameKey)).find((e) => e.event_id === k)!;
    expect(stored.answer).toEqual({ snapCount: 1, snaps: 1 });
    expect(stored.fingerprint).toEqual(expect.any(String));
    // Another snap meanwhile; the lost answer's retry still answers its own first answer.
    await ok(snap(gameKey, [keys[1]!]));
    const replay = await snap(gameKey, [keys[0]!], k);
    expect([replay.statusCode, replay.json()]).toEqual([201, { snapCount: 1, snaps: 1 }]);
    expect((await undo(gameKey, k)).statusCode).toBe(422);
    // Another user's request under the key learns nothing of the coach's count: 404.
    expect(
      (
        await call(
          t.users.Other,
          'POST',
          `/playcounts/${gameKey}/snaps`,
          {
            quarter: 1,
            groupName: 'O',
            players: [keys[0]!],
          },
          k,
        )
      ).statusCode,
    ).toBe(404);
    expect(await keyRows()).toBe(keysBefore);
    // The baseline and the two snaps: the replays and refusals wrote nothing.
    expect((await eventsOf(gameKey)).map((e) => e.event_id)).toHaveLength(3);
  });

  it('two identical keyed snaps at once count once, and both answer the same', async () => {
    const { gameKey, keys } = await count();
    const k = randomKey();
    const [a, b] = await Promise.all([snap(gameKey, keys, k), snap(gameKey, keys, k)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json()).toEqual({ snapCount: 1, snaps: 1 });
    expect(b.json()).toEqual(a.json());
    expect((await eventsOf(gameKey)).filter((e) => e.event_id === k)).toHaveLength(1);
    const game = await ok<{ snaps: unknown[] }>(
      call(t.users.Coach, 'GET', `/playcounts/${gameKey}`),
    );
    expect(game.snaps).toHaveLength(1);
  });

  it('a keyed undo with nothing to undo is remembered: its replay after a snap takes nothing back', async () => {
    const { gameKey, keys } = await count();
    const u = randomKey();
    expect((await undo(gameKey, u)).json()).toEqual({ snapCount: null, snaps: 0 });
    await ok(snap(gameKey, keys));
    expect((await undo(gameKey, u)).json()).toEqual({ snapCount: null, snaps: 0 });
    const game = await ok<{ snaps: unknown[] }>(
      call(t.users.Coach, 'GET', `/playcounts/${gameKey}`),
    );
    expect(game.snaps).toHaveLength(1);
  });

  it('a refused snap is not remembered: the same key carries it once the count is taken up again', async () => {
    const { gameKey, keys } = await count();
    await ok(call(t.users.Coach, 'PATCH', `/playcounts/${gameKey}`, { finished: true }));
    const k = randomKey();
    expect((await snap(gameKey, keys, k)).statusCode).toBe(409);
    await ok(call(t.users.Coach, 'PATCH', `/playcounts/${gameKey}`, { finished: false }));
    expect((await snap(gameKey, keys, k)).json()).toEqual({ snapCount: 1, snaps: 1 });
  });
});
