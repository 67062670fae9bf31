import { describe, expect, it } from 'vitest';
import { applyIntent, type Intent } from '@sagan/shared/scorekeeping';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { API, databaseKinds, newGameOf, type TestUser, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// The web scorekeeper's taps sent back to back, as its outbox sends them (one at a time, each
// built on the newest state it knows), on several games at once while viewers watch and one
// more viewer joins mid-drive: the stored game and every viewer end on what was tapped. A
// write's answer may come before its frame (the frame follows the commit's notification): the
// scorer's side of that is the web's (game-stream.test.ts, e2e/scorekeeper-frame-lag.spec.ts);
// this is the server's: no tap lost or applied twice, and no viewer left on an older state.

interface Base {
  seq: number;
  top: ScoreboardFields;
}

type Top = ScoreboardFields & { gameKey: string };

const FOOTBALL_TAPS: Intent[] = [
  { kind: 'score', team: 'home', by: 6 },
  { kind: 'score', team: 'home', by: 1 },
  { kind: 'score', team: 'away', by: 3 },
  { kind: 'score', team: 'away', by: 2 },
  { kind: 'score', team: 'away', by: -1 },
  { kind: 'toggle', field: 'homePossession' },
  { kind: 'set', values: { down: 1, toGo: 10 } },
  { kind: 'count', field: 'down', by: 1 },
  { kind: 'count', field: 'toGo', by: -1 },
  { kind: 'count', field: 'toGo', by: -1 },
  { kind: 'count', field: 'ballOn', by: 1 },
  { kind: 'count', field: 'ballOn', by: 1 },
  { kind: 'count', field: 'ballOn', by: 1 },
  { kind: 'count', field: 'ballOn', by: -1 },
  { kind: 'count', field: 'down', by: -1 },
  { kind: 'count', field: 'down', by: 1 },
];

describe.each(databaseKinds())('scorekeeper taps sent back to back on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper'], listen: true });

  /**
   * What the web's outbox does (apps/web/src/features/scoreboards/scorekeeper/game-stream.ts):
   * one request at a time; a `set` is a PATCH of the fields it changes with the base's seq, a
   * tap an intent; after an answer the base is the old one with the change when nothing came
   * between, otherwise the live topic's state once it reaches the answer's seq.
   */
  async function sendLikeTheOutbox(
    user: TestUser,
    gameKey: string,
    live: TestSocket,
    taps: Intent[],
  ): Promise<void> {
    const topic = `game:${gameKey}`;
    const newest = (): Base => {
      const m = live.states(topic).at(-1)!;
      return { seq: m.seq, top: (m.data as { top: ScoreboardFields }).top };
    };
    let base = newest();
    let n = 0;
    for (const intent of taps) {
      const shown = newest();
      if (shown.seq >= base.seq) base = shown;
      const key = `${gameKey}-${n++}`;
      let res;
      if (intent.kind === 'set') {
        const patch = applyIntent(base.top, intent);
        if (Object.keys(patch).length === 0) continue;
        res = await user.request({
          method: 'PATCH',
          url: `${API}/games/${gameKey}`,
          headers: { 'idempotency-key': key },
          payload: { ...patch, baseSeq: base.seq, device: 'phone' },
        });
      } else {
        res = await user.request({
          method: 'POST',
          url: `${API}/games/${gameKey}/events`,
          headers: { 'idempotency-key': key },
          payload: {
            action: intent,
            device: 'phone',
            baseSeq: base.seq,
            period: base.top.gamePeriod,
          },
        });
      }
      expect(res.statusCode, res.body).toBe(200);
      const { seq } = res.json<{ seq: number }>();
      if (base.seq === seq - 1) {
        base = { seq, top: { ...base.top, ...applyIntent(base.top, intent) } };
      } else {
        const m = await live.stateAt(topic, seq);
        base = { seq: m.seq, top: (m.data as { top: ScoreboardFields }).top };
      }
    }
  }

  // Thirty-two writes, one at a time per game: on a loaded machine that takes a while.
  it('a football drive: the viewers and the stored game end on what was tapped', async () => {
    const games = await Promise.all(
      Array.from({ length: 2 }, () =>
        newGameOf(t.users.Keeper, { sportID: 5, homeTeamName: 'Lions', awayTeamName: 'Tigers' }),
      ),
    );
    const scorer = await TestSocket.open(t.wsUrl, { cookie: t.users.Keeper.cookie });
    const viewer = await TestSocket.open(t.wsUrl);
    for (const gameKey of games) {
      await scorer.subscribe(`game:${gameKey}`);
      await scorer.subscribe(`gameown:${gameKey}`);
      await viewer.subscribe(`game:${gameKey}`);
    }
    const late = await TestSocket.open(t.wsUrl);
    await Promise.all([
      ...games.map((gameKey) => sendLikeTheOutbox(t.users.Keeper, gameKey, scorer, FOOTBALL_TAPS)),
      ...games.map((gameKey) => late.subscribe(`game:${gameKey}`)),
    ]);
    for (const gameKey of games) {
      const stored = (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{ top: Top }>()
        .top;
      expect(stored).toMatchObject({ homeScore: 7, awayScore: 4, down: 2, toGo: 8, ballOn: 2 });
      const topic = `game:${gameKey}`;
      const seq = Number(
        (
          await t.db.query<{ seq: number }>('SELECT seq FROM topic_seq WHERE topic = $1', [topic])
        )[0]!.seq,
      );
      for (const socket of [viewer, late]) {
        const seen = await socket.stateAt(topic, seq);
        expect((seen.data as { top: Top }).top).toMatchObject({ toGo: 8, down: 2, ballOn: 2 });
      }
    }
    scorer.close();
    viewer.close();
    late.close();
  }, 90_000);
});
