import { describe, expect, it } from 'vitest';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { FANOUT_SLICE } from '../src/realtime/hub.ts';
import { loadRecentGames } from '../src/routes/scoreboards/repo.ts';
import { API, databaseKinds, until, useTestApp } from './helpers.ts';
import { isState, type StateMessage, TestSocket } from './ws-client.ts';

// An aggregate topic with thousands of subscribers (the home page) is written in slices, one
// per turn of the event loop, so writes are served in between. Slicing must not cost a viewer
// anything: frames in order, none twice, the latest state last, one number for it everywhere.
// A game's own viewers, as many, still get every change, at once and in order.

const VIEWERS = 2 * FANOUT_SLICE + 50;
const WRITES = 6;
const INTERVAL_MS = 500;
const RECENT = recentGamesTopic.name();

describe.each(databaseKinds())('a sliced fan-out on $name', (kind) => {
  const t = useTestApp(kind, {
    users: ['Keeper'],
    listen: true,
    // More sockets from one address than a venue's NAT needs at factor 1.
    config: { coalesceMs: INTERVAL_MS, rateLimitFactor: 10 },
  });

  it(`${VIEWERS} home-page viewers end on the latest list; as many viewers of one game get every change in order`, async () => {
    const keeper = t.users.Keeper;
    const created = await keeper.request({
      method: 'POST',
      url: `${API}/games`,
      payload: { gameName: 'Crowded Cup' },
    });
    const { gameKey } = created.json<{ gameKey: string }>();
    const gameTopic = `game:${gameKey}`;
    const viewers: TestSocket[] = [];
    for (let i = 0; i < VIEWERS; i += 50) {
      viewers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, VIEWERS - i) }, async () => {
            const ws = await TestSocket.open(t.wsUrl);
            await ws.subscribe(gameTopic);
            await ws.subscribe(RECENT);
            return ws;
          }),
        )),
      );
    }
    const firstSeq = viewers[0]!.states(gameTopic)[0]!.seq;
    // Two viewers leave while the frames are on their way: the rest are unaffected.
    const leaving = viewers.splice(VIEWERS - 2, 2);

    leaving.forEach((ws) => ws.close());
    // One after another, without waiting for the viewers: each frame's fan-out is still under
    // way when the next write lands.
    for (let score = 1; score <= WRITES; score++) {
      const res = await keeper.request({
        method: 'PATCH',
        url: `${API}/games/${gameKey}`,
        payload: { homeScore: score },
      });
      expect(res.statusCode).toBe(200);
    }

    const lastSeq = firstSeq + WRITES;
    await Promise.all(
      viewers.map((ws) =>
        ws.waitFor((m): m is StateMessage => isState(gameTopic)(m) && m.seq === lastSeq, 0, 15_000),
      ),
    );
    const expected = Array.from({ length: WRITES + 1 }, (_, i) => firstSeq + i);
    for (const ws of viewers) {
      expect(ws.states(gameTopic).map((s) => s.seq)).toEqual(expected);
      expect(ws.states(gameTopic).at(-1)!.data).toMatchObject({ top: { homeScore: WRITES } });
    }

    // The coalesced home page: every viewer ends on the list as it is now, with the same number.
    const final = await loadRecentGames(t.db);
    const lastList = (ws: TestSocket) => ws.states(RECENT).at(-1)!;
    await until(
      () => viewers.every((ws) => JSON.stringify(lastList(ws).data) === JSON.stringify(final)),
      10 * INTERVAL_MS,
    );
    for (const ws of viewers) {
      expect(lastList(ws).data).toEqual(final);
      const seqs = ws.states(RECENT).map((s) => s.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    }
    expect(new Set(viewers.map((ws) => lastList(ws).seq)).size).toBe(1);
    viewers.forEach((ws) => ws.close());
  });
});
