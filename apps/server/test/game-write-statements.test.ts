import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import type { Db, Queryable } from '../src/db/db.ts';
import { API, databaseKinds, newGameOf, useTestApp } from './helpers.ts';
import { isState, TestSocket, type StateMessage } from './ws-client.ts';
import { randomKey } from './security-world.ts';

// A scorekeeper's keyed write (lib/game-write.ts) in as few statements as it can: the lock (with
// the replay lookup and the game topic's seq), then the event append, the snapshot, and every
// topic's seq bump and NOTIFY in one.
describe.each(databaseKinds())('a game write’s statements ($name)', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper'], listen: true });

  /** The lock of a game, as its first words. */
  const LOCK = 'SELECT g.uid, g.fields,';
  const words = (sql: string) => sql.trim().split(/\s+/).slice(0, 3).join(' ');
  let restore: (() => void) | null = null;
  afterEach(() => restore?.());

  /**
   * The statements of each transaction that locked a game while `run` ran (by their first
   * words). Other work of the node (its heartbeat, the coalescer) may run meanwhile: the
   * write's transactions are picked by their first statement. `afterLock` runs inside the
   * transaction once its lock has answered.
   */
  async function writesOf(
    run: () => Promise<unknown>,
    afterLock?: (q: Queryable) => Promise<void>,
  ) {
    const db: Db = t.db;
    const txs: string[][] = [];
    const { tx } = db;
    db.tx = <T>(fn: (q: Queryable) => Promise<T>, opts?: { snapshot?: boolean }) =>
      tx.call(
        db,
        (q) => {
          const seen: string[] = [];
          txs.push(seen);
          // The handle itself is kept (not wrapped): after-commit work is keyed by it.
          const inner = q.query.bind(q);
          q.query = async <R>(sql: string, params?: unknown[]) => {
            seen.push(words(sql));
            const rows = await inner<R>(sql, params);
            if (seen.length === 1 && words(sql) === LOCK) await afterLock?.({ query: inner });
            return rows;
          };
          return fn(q);
        },
        opts,
      ) as Promise<T>;
    restore = () => {
      db.tx = tx;
      restore = null;
    };
    try {
      await run();
    } finally {
      restore();
    }
    return txs.filter((statements) => statements[0] === LOCK);
  }

  const patch = (gameKey: string, payload: object, key: string) =>
    t.users.Keeper.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload,
      headers: { 'idempotency-key': key },
    });
  const seqOf = async (gameKey: string) =>
    Number(
      (
        await t.db.query<{ seq: number | string }>('SELECT seq FROM topic_seq WHERE topic = $1', [
          `game:${gameKey}`,
        ])
      )[0]?.seq ?? 0,
    );
  const homeScoreIs =
    (gameKey: string, score: number) =>
    (m: ServerMessage): m is StateMessage =>
      isState(`game:${gameKey}`)(m) &&
      (m.data as { top: { homeScore: number } }).top.homeScore === score;

  it('a keyed score write is two statements, its replay one; viewers get the new score', async () => {
    const gameKey = await newGameOf(t.users.Keeper);
    const viewer = await TestSocket.open(t.wsUrl);
    try {
      await viewer.subscribe(`game:${gameKey}`);
      const k = randomKey();
      let answer: { seq: number } | undefined;
      expect(
        await writesOf(async () => {
          const res = await patch(gameKey, { homeScore: 3 }, k);
          expect(res.statusCode).toBe(200);
          answer = res.json<{ seq: number }>();
        }),
      ).toEqual([[LOCK, 'WITH bumped AS']]);
      // The seq the answer foresaw is the one the bump made, and the one the event holds.
      expect(answer!.seq).toBe(await seqOf(gameKey));
      const events = await t.db.query<{ seq: number | string }>(
        'SELECT seq FROM game_events WHERE game_key = $1 AND event_id = $2',
        [gameKey, k],
      );
      expect(events.map((e) => Number(e.seq))).toEqual([answer!.seq]);
      // The NOTIFY went out with the bump: a viewer gets the new score.
      expect(await viewer.waitFor(homeScoreIs(gameKey, 3), 0, 30_000)).toBeTruthy();

      expect(
        await writesOf(async () => {
          const res = await patch(gameKey, { homeScore: 3 }, k);
          expect(res.json()).toEqual(answer);
        }),
      ).toEqual([[LOCK]]);
    } finally {
      viewer.close();
    }
  });

  it('a seq moved between the lock and the append by another writer: the write is made again', async () => {
    const gameKey = await newGameOf(t.users.Keeper);
    await patch(gameKey, { homeScore: 1 }, randomKey());
    let bumped = false;
    const k = randomKey();
    let answer: { seq: number } | undefined;
    const writes = await writesOf(
      async () => {
        const res = await patch(gameKey, { homeScore: 2 }, k);
        expect(res.statusCode).toBe(200);
        answer = res.json<{ seq: number }>();
      },
      // What a write that bumps the game's topic without its row lock does, once.
      async (q) => {
        if (bumped) return;
        bumped = true;
        await q.query('UPDATE topic_seq SET seq = seq + 1 WHERE topic = $1', [`game:${gameKey}`]);
      },
    );
    // The first transaction saw another seq than it foresaw and rolled back (its bump with it).
    expect(writes).toEqual([
      [LOCK, 'WITH bumped AS'],
      [LOCK, 'WITH bumped AS'],
    ]);
    expect(answer!.seq).toBe(await seqOf(gameKey));
    const events = await t.db.query<{ seq: number | string }>(
      'SELECT seq FROM game_events WHERE game_key = $1 AND event_id = $2',
      [gameKey, k],
    );
    expect(events.map((e) => Number(e.seq))).toEqual([answer!.seq]);
  });
});
