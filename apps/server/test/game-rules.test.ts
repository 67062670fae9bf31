import { describe, expect, it } from 'vitest';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { volleyballSetWinner, type Intent } from '@sagan/shared/scorekeeping';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import {
  PARIS_2024_BEACH_VOLLEYBALL,
  PARIS_2024_VOLLEYBALL,
  tennisSet,
  volleyballSet,
  WIMBLEDON_2019,
} from '@sagan/shared/match-replays';
import { API, databaseKinds, newGameOf, useTestApp, type TestUser, eventCount } from './helpers.ts';
import { gameDetailShowing, TestSocket } from './ws-client.ts';

// A game's rules (tennis no-ad and deciding set, volleyball set points) are chosen when it is
// made, validated, carried on the game, and its owner's alone to change until play begins.
// Published matches are replayed tap by tap through the real events route; the order of points
// within games and of rallies within sets is invented (packages/shared/src/match-replays.ts).

describe.each(databaseKinds())('game rules on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Owner', 'Scorer'], listen: true });

  const call = (user: TestUser, method: 'POST' | 'PATCH', url: string, payload: object) =>
    user.request({ method, url: `${API}${url}`, payload });
  const top = async (gameKey: string) =>
    (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{ top: ScoreboardFields }>().top;
  const act = (gameKey: string, action: object, user = t.users.Owner) =>
    call(user, 'POST', `/games/${gameKey}/events`, { action, device: 'phone-a' });
  async function play(gameKey: string, intents: Intent[]) {
    for (const action of intents) {
      const res = await act(gameKey, action);
      expect(res.statusCode, res.body).toBe(200);
    }
  }
  /** The line score's periods a viewer of the game is shown once `shows` holds. */
  async function periodsShown(gameKey: string, shows: (d: GameDetail) => boolean) {
    const viewer = await TestSocket.open(t.wsUrl);
    try {
      await viewer.subscribe(`gamedetail:${gameKey}`);
      return (await gameDetailShowing(viewer, gameKey, shows)).data.lineScore.periods;
    } finally {
      viewer.close();
    }
  }
  const points = (p: GameDetail['lineScore']['periods'][number]) =>
    `${p.label}:${p.home!.points}-${p.away!.points}`;
  const gameCount = async () =>
    Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM games'))[0]!.n);

  it('rules chosen at creation are carried on the game; a game without them carries none', async () => {
    const gameKey = await newGameOf(t.users.Owner, {
      sportID: 8,
      maxSets: 5,
      tennisNoAd: true,
      tennisDecider: 'matchTiebreak',
    });
    expect(await top(gameKey)).toMatchObject({ tennisNoAd: true, tennisDecider: 'matchTiebreak' });
    const plain = await newGameOf(t.users.Owner, { sportID: 8 });
    const body = (await t.app.inject({ url: `${API}/games/${plain}` })).body;
    for (const field of [
      'tennisNoAd',
      'tennisDecider',
      'setPoints',
      'decidingSetPoints',
      'volleyballBestOf',
    ])
      expect(body).not.toContain(field);
  });

  it('bad rules are refused in words and make no game', async () => {
    const before = await gameCount();
    for (const fields of [
      { sportID: 8, tennisDecider: 'sudden death' },
      { sportID: 6, setPoints: 2 },
      { sportID: 6, decidingSetPoints: 'fifteen' },
      { sportID: 6, volleyballBestOf: 4 },
    ]) {
      const res = await call(t.users.Owner, 'POST', '/games', fields);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ error: string }>().error).toBeTruthy();
    }
    expect(await gameCount()).toBe(before);
  });

  // Each rule, by the same refusals: a co-scorer may never change it, the owner until play
  // begins; then it stays, by either route, and nothing is written.
  it.each([
    {
      rule: 'volleyball set points',
      sportID: 6,
      change: { setPoints: 21, decidingSetPoints: 11 },
      late: { setPoints: 25 },
      point: { kind: 'score', team: 'home', by: 1 },
    },
    {
      rule: 'volleyball match length',
      sportID: 6,
      change: { volleyballBestOf: 3 },
      late: { volleyballBestOf: 5 },
      point: { kind: 'score', team: 'home', by: 1 },
    },
    {
      rule: 'tennis deciding set',
      sportID: 8,
      change: { tennisDecider: 'matchTiebreak' },
      late: { tennisDecider: 'advantage' },
      point: { kind: 'tennisPoint', team: 'home' },
    },
    {
      rule: 'tennis no-ad',
      sportID: 8,
      change: { tennisNoAd: true },
      late: { tennisNoAd: false },
      point: { kind: 'tennisPoint', team: 'home' },
    },
  ])(
    "$rule: the owner changes it until play begins; a co-scorer never; then it's fixed",
    async ({ sportID, change, late, point }) => {
      const gameKey = await newGameOf(t.users.Owner, { sportID, gamePeriod: 'Set 1' });
      const invite = await call(t.users.Owner, 'POST', `/games/${gameKey}/coscorers`, {});
      expect(invite.statusCode, invite.body).toBe(200);
      const redeem = await call(t.users.Scorer, 'POST', '/coscorers/redeem', {
        token: invite.json<{ token: string }>().token,
      });
      expect(redeem.statusCode, redeem.body).toBe(200);

      // Absolute edits, rules among them, go by PATCH (the events route takes only intents).
      const edit = (user: TestUser, values: object) =>
        call(user, 'PATCH', `/games/${gameKey}`, { ...values, device: 'phone-a' });
      const byScorer = await edit(t.users.Scorer, change);
      expect(byScorer.statusCode).toBe(403);
      expect(byScorer.json<{ error: string }>().error).toMatch(/owner can change its rules/);

      const byOwner = await edit(t.users.Owner, change);
      expect(byOwner.statusCode, byOwner.body).toBe(200);
      expect(await top(gameKey)).toMatchObject(change);
      // The same value is no change: a co-scorer's edit carrying it goes through.
      expect((await edit(t.users.Scorer, { ...change, awayScore: 0 })).statusCode).toBe(200);

      // The scorer scores; then the rule stays as it was.
      expect((await act(gameKey, point, t.users.Scorer)).statusCode).toBe(200);
      const events = await eventCount(t.db, gameKey);
      const tooLate = await edit(t.users.Owner, late);
      expect(tooLate.statusCode).toBe(422);
      expect(tooLate.json<{ error: string }>().error).toMatch(/once play has begun/);
      expect(await eventCount(t.db, gameKey)).toBe(events);
      expect(await top(gameKey)).toMatchObject(change);
      // Other corrections go on as before.
      expect((await edit(t.users.Owner, { homeScore: 20 })).statusCode).toBe(200);
    },
  );

  it('a volleyball set given by mistake and taken back with Sets − never stays on the line score', async () => {
    const gameKey = await newGameOf(t.users.Owner, { sportID: 6, gamePeriod: 'Set 1' });
    // The taps of the scorekeeper's e2e, each with the set its screen showed: Sets − was seen
    // made while the screen still showed the set "Won set" had just ended.
    const taps: [Intent, string][] = [
      [{ kind: 'score', team: 'home', by: 1 }, 'Set 1'],
      [{ kind: 'score', team: 'home', by: 1 }, 'Set 1'],
      [{ kind: 'score', team: 'away', by: 1 }, 'Set 1'],
      [{ kind: 'setWon', team: 'home' }, 'Set 1'],
      [{ kind: 'setWon', team: 'away' }, 'Set 2'],
      [{ kind: 'score', team: 'away', by: 1 }, 'Set 3'],
      [{ kind: 'score', team: 'home', by: 1 }, 'Set 3'],
      [{ kind: 'score', team: 'home', by: -1 }, 'Set 3'],
      [{ kind: 'count', field: 'awayScoreGames', by: -1 }, 'Set 2'],
    ];
    for (const [action, period] of taps) {
      const res = await call(t.users.Owner, 'POST', `/games/${gameKey}/events`, {
        action,
        device: 'phone-a',
        period,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ held?: boolean }>().held).toBeUndefined();
    }
    // The set being played follows the corrected tally.
    expect(await top(gameKey)).toMatchObject({
      homeScoreGames: 1,
      awayScoreGames: 0,
      gamePeriod: 'Set 2',
    });
    // The correction form's save, then the scorer confirms the set the rules say is won.
    const edit = await call(t.users.Owner, 'PATCH', `/games/${gameKey}`, {
      homeScore: 25,
      device: 'phone-a',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await play(gameKey, [{ kind: 'setWon', team: 'home' }]);
    expect(await top(gameKey)).toMatchObject({ homeScoreGames: 2, awayScoreGames: 0 });
    const periods = await periodsShown(gameKey, (d) =>
      d.lineScore.periods.some((p) => p.home?.points === 25),
    );
    expect(periods.map((p) => `${points(p)}${p.live ? ' live' : ''}`)).toEqual([
      'Set 1:2-1',
      'Set 2:25-1',
      'Set 3:0-0 live',
    ]);
  });

  // A replay is hundreds of requests: on a loaded machine it takes longer than the usual limit.
  const REPLAY_TIMEOUT = 180_000;

  // Source: the Championships, Wimbledon 2019, gentlemen's singles final (14 July 2019),
  // N. Djokovic d. R. Federer 7–6(5) 1–6 7–6(4) 4–6 13–12(3).
  it(
    'the 2019 Wimbledon final, point by point through the server, ends at the official score',
    async () => {
      const gameKey = await newGameOf(t.users.Owner, {
        sportID: 8,
        gamePeriod: 'Set 1',
        homeTeamName: 'Djokovic',
        awayTeamName: 'Federer',
        maxSets: 5,
        tennisDecider: 'tiebreak12',
      });
      await play(gameKey, WIMBLEDON_2019.flatMap(tennisSet));
      const final = await top(gameKey);
      expect(final.gamePeriod).toBe('Final');
      expect(
        [1, 2, 3, 4, 5].map(
          (n) => `${final[`homeSet${n}` as 'homeSet1']}-${final[`awaySet${n}` as 'awaySet1']}`,
        ),
      ).toEqual(['7-6', '1-6', '7-6', '4-6', '13-12']);
      const periods = await periodsShown(gameKey, (d) => d.lineScore.periods.length === 5);
      const printed = periods.map(
        (p) =>
          `${p.home!.points}–${p.away!.points}` +
          (p.tiebreak ? `(${Math.min(p.tiebreak.home, p.tiebreak.away)})` : ''),
      );
      expect(printed).toEqual(['7–6(5)', '1–6', '7–6(4)', '4–6', '13–12(3)']);
    },
    REPLAY_TIMEOUT,
  );

  // Source: Olympic Games Paris 2024, women's volleyball final (11 August 2024), Italy d.
  // United States 25–18 25–20 25–17.
  it(
    'the Paris 2024 volleyball final, rally by rally through the server, ends 3–0',
    async () => {
      const gameKey = await newGameOf(t.users.Owner, {
        sportID: 6,
        gamePeriod: 'Set 1',
        homeTeamName: 'Italy',
        awayTeamName: 'United States',
      });
      await play(
        gameKey,
        PARIS_2024_VOLLEYBALL.flatMap(([home, away]) => volleyballSet(home, away)),
      );
      const final = await top(gameKey);
      expect(final).toMatchObject({ homeScoreGames: 3, awayScoreGames: 0, gamePeriod: 'Final' });
      const periods = await periodsShown(gameKey, (d) => d.lineScore.periods.length === 3);
      expect(periods.map(points)).toEqual(['Set 1:25-18', 'Set 2:25-20', 'Set 3:25-17']);
    },
    REPLAY_TIMEOUT,
  );
  // Source: Olympic Games Paris 2024, women's beach volleyball final (9 August 2024), Ana
  // Patrícia/Duda (Brazil) d. Melissa Humana-Paredes/Brandie Wilkerson (Canada) 26–24 12–21
  // 15–10: best of 3, sets to 21, the deciding third to 15. Checked against Volleyball World's
  // report, "Ana Patricia & Duda put Brazil back on top of Olympic podium" (9 August 2024),
  // https://en.volleyballworld.com/beachvolleyball/competitions/beach-volleyball-olympic-games-paris-2024/news/ana-patricia-duda-put-brazil-back-on-top-of-olympic-podium
  it(
    'a best-of-3 match: the Paris 2024 beach volleyball final ends at the second set won',
    async () => {
      const gameKey = await newGameOf(t.users.Owner, {
        sportID: 6,
        gamePeriod: 'Set 1',
        homeTeamName: 'Brazil',
        awayTeamName: 'Canada',
        volleyballBestOf: 3,
        setPoints: 21,
      });
      const [first, second, third] = PARIS_2024_BEACH_VOLLEYBALL.map(([home, away]) =>
        volleyballSet(home, away),
      );
      await play(gameKey, [...first!, ...second!, ...third!.slice(0, -1)]);
      // 15–10 in the third: the deciding set's points, so the rules say it is won.
      const deciding = await top(gameKey);
      expect(deciding).toMatchObject({ gamePeriod: 'Set 3', homeScore: 15, awayScore: 10 });
      expect(volleyballSetWinner(deciding)).toBe('home');
      await play(gameKey, third!.slice(-1));
      const final = await top(gameKey);
      expect(final).toMatchObject({ homeScoreGames: 2, awayScoreGames: 1, gamePeriod: 'Final' });
      const periods = await periodsShown(
        gameKey,
        (d) => d.lineScore.periods.length === 3 && !d.lineScore.periods.some((p) => p.live),
      );
      expect(periods.map(points)).toEqual(['Set 1:26-24', 'Set 2:12-21', 'Set 3:15-10']);
    },
    REPLAY_TIMEOUT,
  );
});
