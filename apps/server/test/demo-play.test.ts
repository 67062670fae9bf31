import { describe, expect, it } from 'vitest';
import {
  FINAL,
  newGame,
  resumeGame,
  SPORT_PLAY,
  START_STEPS,
  stepGame,
  type SimGame,
} from '../src/demo/play.ts';
import { foldGame, type LoggedEvent } from '@sagan/shared/game-log';
import { lineScore } from '@sagan/shared/line-score';
import {
  defaultScoreboard,
  scoreboardFieldsSchema,
  type ScoreboardFields,
} from '@sagan/shared/scoreboard';
import { seededRng } from './helpers.ts';

/** Plays a whole game of the sport; answers it with every period it went through. */
function playOut(sportID: number, seed: number) {
  const rng = seededRng(seed);
  const game = newGame(sportID, 'Test', rng);
  const periods = [game.fields.gamePeriod];
  const clocks: number[] = [];
  let steps = 0;
  while (game.fields.gamePeriod !== FINAL) {
    stepGame(game, rng);
    if (periods.at(-1) !== game.fields.gamePeriod) periods.push(game.fields.gamePeriod);
    if (game.clock !== null) clocks.push(game.clock);
    if (++steps > 20_000) throw new Error(`sport ${sportID} never ended`);
  }
  return { game, periods, clocks, steps };
}

function many(sportID: number, n = 200) {
  return Array.from({ length: n }, (_, i) => playOut(sportID, 1000 + i));
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const scores = (games: { game: SimGame }[]) =>
  games.flatMap(({ game: { fields } }) => [fields.homeScore, fields.awayScore]);

describe('demo play: every sport starts, runs its periods and ends Final', () => {
  it.each(Object.keys(SPORT_PLAY).map(Number))('sport %i', (sportID) => {
    const { periods, steps } = playOut(sportID, 7);
    expect(periods[0]).toBe('Starting Soon');
    expect(periods.at(-1)).toBe(FINAL);
    expect(periods.length).toBeGreaterThan(2);
    // Compressed, but not to nothing: a game lasts minutes of the demo, not hours.
    expect(steps).toBeGreaterThan(START_STEPS + 100);
    expect(steps).toBeLessThan(2000);
  });
});

describe('demo play: believable scores', () => {
  it('soccer: two or three goals a game', () => {
    const games = many(3);
    const totals = games.map(({ game: g }) => g.fields.homeScore + g.fields.awayScore);
    expect(mean(totals)).toBeGreaterThan(1.8);
    expect(mean(totals)).toBeLessThan(3.5);
    expect(Math.max(...totals)).toBeLessThan(12);
    // The clock counts up through both halves to 90:00.
    expect(games[0]!.periods).toEqual(['Starting Soon', '1st Half', '2nd Half', FINAL]);
    expect(games[0]!.clocks.at(-1)).toBe(5400);
  });

  it('basketball: twos, threes and free throws, 60 to 100 a team; quarters; ties go to OT', () => {
    const games = many(2);
    const points = scores(games);
    expect(mean(points)).toBeGreaterThan(65);
    expect(mean(points)).toBeLessThan(95);
    // Most team scores are in a real game's range; none is absurd.
    expect(points.filter((p) => p >= 50 && p <= 115).length / points.length).toBeGreaterThan(0.9);
    expect(Math.min(...points)).toBeGreaterThan(20);
    expect(Math.max(...points)).toBeLessThan(150);
    for (const { game, periods } of games) {
      expect(periods.slice(0, 5)).toEqual(['Starting Soon', 'Q1', 'Q2', 'Q3', 'Q4']);
      expect(game.fields.homeScore).not.toBe(game.fields.awayScore);
    }
    expect(games.some((g) => g.periods.includes('OT'))).toBe(true);
    // Team fouls start again each quarter.
    expect(Math.max(...games.map((g) => g.game.fields.homeFouls))).toBeLessThan(15);
  });

  it.each([
    { sport: 'Aussie rules', sportID: 4, goal: 6, low: 60, high: 110 },
    { sport: 'Gaelic', sportID: 13, goal: 3, low: 12, high: 30 },
  ])(
    '$sport: goals × $goal + behinds/points, $low to $high a team',
    ({ sportID, goal, low, high }) => {
      const games = many(sportID);
      for (const { game: g } of games) {
        expect(g.fields.homeScore).toBe(g.fields.homeScoreGoals * goal + g.fields.homeScorePoints);
        expect(g.fields.awayScore).toBe(g.fields.awayScoreGoals * goal + g.fields.awayScorePoints);
      }
      expect(mean(scores(games))).toBeGreaterThan(low);
      expect(mean(scores(games))).toBeLessThan(high);
    },
  );

  /** The board as the shared fold makes it from the game's first set and the demo's taps. */
  function folded(sportID: number, seed: number) {
    const rng = seededRng(seed);
    const game = newGame(sportID, 'Test', rng);
    let first: ScoreboardFields | null = null;
    const points = new Set<string>();
    for (let steps = 0; game.fields.gamePeriod !== FINAL; steps++) {
      stepGame(game, rng);
      if (!first && game.fields.gamePeriod === 'Set 1') first = { ...game.fields };
      points.add(game.fields.homeScorePointsTennis).add(game.fields.awayScorePointsTennis);
      // Every state the demo shows is one the scoreboard's schema takes.
      expect(scoreboardFieldsSchema.safeParse(game.fields).success).toBe(true);
      if (steps > 20_000) throw new Error(`sport ${sportID} never ended`);
    }
    const log: LoggedEvent[] = [
      { id: 'baseline', body: { kind: 'set', values: first! } },
      ...game.taps.map((body, i) => ({ id: `t${i}`, body })),
    ];
    return { game, log, points, board: foldGame(defaultScoreboard, log) };
  }

  it('volleyball: sets to 25 (the fifth to 15) won by two, best of five, by the shared rules', () => {
    for (let seed = 0; seed < 60; seed++) {
      const { game, log, board } = folded(6, 1000 + seed);
      expect(board).toEqual(game.fields);
      const sets = lineScore(defaultScoreboard, log).periods;
      const won = (side: 'home' | 'away') =>
        sets.filter((p) => p[side]!.points > p[side === 'home' ? 'away' : 'home']!.points).length;
      expect(Math.max(won('home'), won('away'))).toBe(3);
      expect(Math.min(won('home'), won('away'))).toBeLessThan(3);
      sets.forEach((p, i) => {
        const target = i === 4 ? 15 : 25;
        const [w, l] = [p.home!.points, p.away!.points].sort((a, b) => b - a) as [number, number];
        expect(p.live).toBeUndefined();
        expect(w - l).toBeGreaterThanOrEqual(2);
        expect(w === target ? l <= target - 2 : w - l === 2 && w > target).toBe(true);
      });
    }
  });

  it('tennis: deuce and advantage, a tiebreak at 6–6 now and then, best of three, by the shared rules', () => {
    let tiebreaks = 0;
    const seen = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const { game, log, points, board } = folded(8, 1000 + seed);
      points.forEach((p) => seen.add(p));
      expect(board).toEqual(game.fields);
      const sets = lineScore(defaultScoreboard, log).periods;
      let home = 0;
      let away = 0;
      for (const p of sets) {
        const [h, a] = [p.home!.points, p.away!.points];
        const [w, l] = h > a ? [h, a] : [a, h];
        expect(w === 6 ? l <= 4 : w === 7 && (l === 5 || l === 6)).toBe(true);
        if (w === 7 && l === 6) {
          tiebreaks++;
          // The tiebreak's points, to 7 by two, are kept with its set.
          const tb = p.tiebreak!;
          expect(Math.max(tb.home, tb.away)).toBeGreaterThanOrEqual(7);
          expect(Math.abs(tb.home - tb.away)).toBeGreaterThanOrEqual(2);
        }
        if (h > a) home++;
        else away++;
      }
      expect(Math.max(home, away)).toBe(2);
      expect(Math.min(home, away)).toBeLessThan(2);
      expect([game.fields.homeScorePointsTennis, game.fields.awayScorePointsTennis]).toEqual([
        '0',
        '0',
      ]);
    }
    expect(tiebreaks).toBeGreaterThan(0);
    // The points as a tennis board reads them, and a tiebreak's count beside them.
    for (const p of ['0', '15', '30', '40', 'AD', '3']) expect(seen).toContain(p);
  });

  it('baseball: nine innings of three outs, a few runs a side', () => {
    const games = many(7);
    const runs = scores(games);
    expect(mean(runs)).toBeGreaterThan(2.5);
    expect(mean(runs)).toBeLessThan(8);
    for (const { periods, game } of games) {
      expect(periods.slice(1, 4)).toEqual(['Top 1st', 'Bottom 1st', 'Top 2nd']);
      expect(periods).toContain('Top 9th');
      expect(game.fields.balls).toBeLessThan(4);
      expect(game.fields.strikes).toBeLessThan(3);
      expect(game.fields.outs).toBeLessThan(3);
    }
  });

  it('American football: downs 1 to 4, touchdowns and field goals, about 20 a team', () => {
    const rng = seededRng(3);
    const game = newGame(5, 'Test', rng);
    const downs = new Set<number>();
    while (game.fields.gamePeriod !== FINAL) {
      stepGame(game, rng);
      if (game.fields.gamePeriod.startsWith('Q')) {
        downs.add(game.fields.down);
        expect(game.fields.ballOn).toBeGreaterThanOrEqual(1);
        expect(game.fields.ballOn).toBeLessThanOrEqual(50);
        expect(game.fields.toGo).toBeGreaterThanOrEqual(1);
      }
    }
    expect([...downs].sort()).toEqual([1, 2, 3, 4]);
    const points = scores(many(5));
    expect(mean(points)).toBeGreaterThan(12);
    expect(mean(points)).toBeLessThan(32);
    // Points come as 3, 6, 7 (and sums of them): never 1, 2, 4 or 5 at the end.
    expect(points.filter((p) => [1, 2, 4, 5].includes(p))).toEqual([]);
  });

  it('ice hockey, lacrosse, water polo and rugby score like themselves', () => {
    expect(mean(scores(many(12, 100)))).toBeLessThan(4.5);
    expect(mean(scores(many(10, 100)))).toBeGreaterThan(6);
    expect(mean(scores(many(10, 100)))).toBeLessThan(16);
    expect(mean(scores(many(11, 100)))).toBeGreaterThan(5);
    expect(mean(scores(many(11, 100)))).toBeLessThan(14);
    expect(mean(scores(many(9, 100)))).toBeGreaterThan(12);
    expect(mean(scores(many(9, 100)))).toBeLessThan(35);
  });
});

describe('demo play: a stored game goes on where it stands', () => {
  it('a seeded basketball game in Q3 at 8:00 runs down its clock and on to Q4', () => {
    const rng = seededRng(11);
    const fields = { ...newGame(2, 'Hoops', rng).fields, gamePeriod: 'Q3', homeScore: 48 };
    const game = resumeGame(fields, 480);
    const seen: string[] = [];
    for (let i = 0; i < 200; i++) {
      stepGame(game, rng);
      if (seen.at(-1) !== game.fields.gamePeriod) seen.push(game.fields.gamePeriod);
    }
    expect(seen.slice(0, 2)).toEqual(['Q3', 'Q4']);
    expect(game.fields.homeScore).toBeGreaterThan(48);
  });
});
