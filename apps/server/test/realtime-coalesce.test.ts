import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { afterCommit } from '../src/db/db.ts';
import { loadRecentGames } from '../src/routes/scoreboards/repo.ts';
import {
  API,
  databaseKinds,
  newGameOf,
  postgresKindIfAny,
  signInLocal,
  type TestUser,
  useTestApp,
  useTwoNodes,
} from './helpers.ts';
import { isState, type StateMessage, TestSocket } from './ws-client.ts';

// DESIGN §9: aggregate topics (here the home page's recent games) get at most one frame per
// interval, always ending on the latest state, numbered alike on every node; a game's own
// topic still gets every change at once, and no write waits for the aggregate's number.

// Short, so the waits for an interval to end stay short; what the tests hold the frames to is
// scaled to the time the writes took (framesAllowed), not to a fixed count.
const INTERVAL_MS = 400;
/** How long a viewer may take to get a frame it is owed, on a busy machine. */
const FRAME_WAIT_MS = 8000;
const RECENT = recentGamesTopic.name();
const BURST = 100;

const newGame = (keeper: TestUser, gameName: string) => newGameOf(keeper, { gameName });

async function watch(url: string, topic: string) {
  const ws = await TestSocket.open(url);
  await ws.subscribe(topic);
  return ws;
}

/** Resolves once the viewer's latest frame of topic carries `data`. */
async function latestFrameIs(
  ws: TestSocket,
  topic: string,
  data: unknown,
  timeoutMs = FRAME_WAIT_MS,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = ws.states(topic).at(-1);
    if (last && JSON.stringify(last.data) === JSON.stringify(data)) return last;
    if (Date.now() > deadline) {
      throw new Error(`no frame with the final state; last: ${JSON.stringify(last?.data)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The home-page frames a viewer got from index `from` until a marker game (created after the
 * writes under test) tops the list. Frames of one topic arrive in order, so a late frame of the
 * writes would come before the marker's: nothing is left to wait for, and no sleep decides it.
 */
async function framesBeforeMarker(home: TestSocket, from: number, markerKey: string) {
  const tops = (m: StateMessage) => (m.data as { gameKey: string }[])[0]?.gameKey === markerKey;
  await home.waitFor((m): m is StateMessage => isState(RECENT)(m) && tops(m), 0, FRAME_WAIT_MS);
  const frames = home.states(RECENT).slice(from);
  return frames.slice(0, frames.findIndex(tops));
}

/**
 * At most one frame per interval: bumps are gated at least an interval apart, so the frames
 * that arrived between `startedAt` (before the first write) and now number at most one more
 * than the intervals that fit in that time (a bound one looser than needed when the marker's
 * frame is among them). Without coalescing a burst of 100 writes gets up to 100 frames.
 */
const framesAllowed = (startedAt: number) =>
  Math.floor((performance.now() - startedAt) / INTERVAL_MS) + 1;

const patchScore = (keeper: TestUser, gameKey: string, homeScore: number) =>
  keeper.request({ method: 'PATCH', url: `${API}/games/${gameKey}`, payload: { homeScore } });

describe.each(databaseKinds())('aggregate topics are coalesced on $name', (kind) => {
  const t = useTestApp(kind, {
    users: ['Keeper'],
    listen: true,
    config: { coalesceMs: INTERVAL_MS },
  });

  it('a burst of 100 writes: every change reaches the game, at most one frame an interval the home page', async () => {
    const keeper = t.users.Keeper;
    const gameKey = await newGame(keeper, 'Burst Cup');
    const gameTopic = `game:${gameKey}`;
    await t.app.hub.coalescer.settled(); // the new game's own bump of the list is numbered
    const home = await watch(t.wsUrl, RECENT);
    const game = await watch(t.wsUrl, gameTopic);
    const homeBefore = home.states(RECENT).length;

    const startedAt = performance.now();
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => patchScore(keeper, gameKey, i + 1)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(BURST).fill(200));

    // The game's viewers are never made to wait: one frame per change, numbered one by one.
    const firstSeq = game.states(gameTopic)[0]!.seq;
    await game.waitFor(
      (m): m is StateMessage => isState(gameTopic)(m) && m.seq === firstSeq + BURST,
    );
    expect(game.states(gameTopic).map((s) => s.seq)).toEqual(
      Array.from({ length: BURST + 1 }, (_, i) => firstSeq + i),
    );

    const final = await loadRecentGames(t.db);
    expect(final[0]?.gameKey).toBe(gameKey);
    await latestFrameIs(home, RECENT, final);
    const frames = await framesBeforeMarker(home, homeBefore, await newGame(keeper, 'Marker'));
    expect(frames.length).toBeGreaterThanOrEqual(1);
    expect(frames.length).toBeLessThanOrEqual(framesAllowed(startedAt));
    expect(frames.at(-1)!.data).toEqual(final);
    // Numbers only grow, and the last frame is the list as it is now.
    const seqs = frames.map((f) => f.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
    home.close();
    game.close();
  });

  it('topics changed again within an interval wait for the next bump, all together, with no refused try', async () => {
    const { coalescer } = t.app.hub;
    const topics = Array.from({ length: 6 }, (_, i) => `${RECENT}-steady-${i}`);
    await coalescer.settled();
    coalescer.mark([topics[0]!]);
    await coalescer.settled();
    const before = { ...coalescer.counts };
    const bumpedAt = performance.now();
    // The first topic again, within its interval, and five that were never bumped.
    coalescer.mark(topics);
    await coalescer.settled();
    // Tried each on its own clock, the five went at once with the first refused beside them,
    // and the first alone an interval later: two statements. Now one, an interval after the
    // last bump.
    expect(coalescer.counts.statements - before.statements).toBe(1);
    expect(coalescer.counts.refused - before.refused).toBe(0);
    expect(coalescer.counts.bumped - before.bumped).toBe(6);
    expect(performance.now() - bumpedAt).toBeGreaterThanOrEqual(INTERVAL_MS / 2);
    const seqs = await t.db.query<{ topic: string; seq: number }>(
      'SELECT topic, seq FROM topic_seq WHERE topic = ANY($1::text[]) ORDER BY topic',
      [topics],
    );
    expect(seqs.map((r) => [r.topic, Number(r.seq)])).toEqual(
      topics.map((topic, i) => [topic, i === 0 ? 2 : 1]),
    );
  });

  it('a change is numbered after its transaction commits, never when it rolls back', async () => {
    const seen: string[] = [];
    await expect(
      t.db.tx(async (q) => {
        afterCommit(q, () => seen.push('rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await t.db.tx(async (q) => {
      await q.query('SELECT 1');
      afterCommit(q, () => seen.push('committed'));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['committed']);
    // Outside a transaction the statements have committed already: at once.
    afterCommit(t.db, () => seen.push('no transaction'));
    expect(seen).toEqual(['committed', 'no transaction']);
  });
});

const postgres = postgresKindIfAny();

describe.runIf(postgres)('aggregate topics across two nodes on one PostgreSQL', () => {
  const t = useTwoNodes(postgres, { config: { coalesceMs: INTERVAL_MS } });

  it('writes on both nodes: each home page gets at most one frame an interval, the same last number and state', async () => {
    const keeperA = await signInLocal(t.nodeA, 'Two Node Keeper');
    // The same session on node B: its cookie works on every node.
    const keeperB: TestUser = {
      ...keeperA,
      request: (opts) =>
        t.nodeB.inject({
          ...opts,
          headers: { 'x-sagan-request': '1', cookie: keeperA.cookie, ...(opts.headers ?? {}) },
        }),
    };
    const games = [await newGame(keeperA, 'North'), await newGame(keeperB, 'South')];
    await Promise.all([t.nodeA.hub.coalescer.settled(), t.nodeB.hub.coalescer.settled()]);
    const homeA = await watch(t.urlA, RECENT);
    const homeB = await watch(t.urlB, RECENT);
    const before = [homeA.states(RECENT).length, homeB.states(RECENT).length];

    const startedAt = performance.now();
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        patchScore(i % 2 ? keeperB : keeperA, games[i % 2]!, i + 1),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(BURST).fill(200));

    const final = await loadRecentGames(t.database.db);
    await latestFrameIs(homeA, RECENT, final);
    await latestFrameIs(homeB, RECENT, final);
    const marker = await newGame(keeperA, 'Marker');
    for (const [i, home] of [homeA, homeB].entries()) {
      const frames = await framesBeforeMarker(home, before[i]!, marker);
      expect(frames.length).toBeLessThanOrEqual(framesAllowed(startedAt));
      expect(frames.at(-1)!.data).toEqual(final);
    }
    // One number for one state, whichever node a viewer is on.
    expect(homeA.states(RECENT).at(-1)!.seq).toBe(homeB.states(RECENT).at(-1)!.seq);
    homeA.close();
    homeB.close();
  });

  it('a score change does not wait for the recent-games row (no global lock in the write)', async () => {
    const keeper = await signInLocal(t.nodeA, 'Lock Keeper');
    const gameKey = await newGame(keeper, 'Unlocked');
    await t.nodeA.hub.coalescer.settled();
    const locker = new pg.Client({ connectionString: t.database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      const held = await locker.query('SELECT seq FROM topic_seq WHERE topic = $1 FOR UPDATE', [
        RECENT,
      ]);
      expect(held.rowCount).toBe(1);
      const answer = await Promise.race([
        patchScore(keeper, gameKey, 7).then((r) => r.statusCode),
        sleep(5000).then(() => 'still waiting for the lock'),
      ]);
      expect(answer).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    // Once the row is free, the list is numbered and sent as usual.
    const home = await watch(t.urlB, RECENT);
    await latestFrameIs(home, RECENT, await loadRecentGames(t.database.db));
    home.close();
  });
});
