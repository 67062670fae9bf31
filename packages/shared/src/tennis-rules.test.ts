import { describe, expect, it } from 'vitest';
import { defaultScoreboard, scoreboardPatchSchema, type ScoreboardFields } from './scoreboard.ts';
import { foldGame, type LoggedEvent } from './game-log.ts';
import { lineScore } from './line-score.ts';
import { tennisSet, WIMBLEDON_2019, type PrintedSet } from './match-replays.ts';
import { applyIntent, inTiebreak, type Intent, type Team } from './scorekeeping.ts';

// The per-game tennis rules: advantage or no-ad, the tiebreak at 6–6 counted 1, 2, 3… to 7 by
// 2, the deciding set's rule, best of 3 or 5; and published matches replayed through the fold.

const tennis = (over: Partial<ScoreboardFields> = {}): ScoreboardFields => ({
  ...defaultScoreboard,
  sportID: 8,
  maxSets: 3,
  gamePeriod: 'Set 1',
  ...over,
});
const run = (start: ScoreboardFields, intents: Intent[]) =>
  intents.reduce((f, i) => ({ ...f, ...applyIntent(f, i) }), start);
const point = (team: Team): Intent => ({ kind: 'tennisPoint', team });
const points = (team: Team, n: number) => Array.from({ length: n }, () => point(team));
const points2 = (f: ScoreboardFields) => [f.homeScorePointsTennis, f.awayScorePointsTennis];
const sets = (f: ScoreboardFields) =>
  [1, 2, 3, 4, 5].map((n) => `${f[`homeSet${n}` as 'homeSet1']}-${f[`awaySet${n}` as 'awaySet1']}`);
/** A log as the server keeps it: the baseline, then the taps. */
const logOf = (start: ScoreboardFields, intents: Intent[]): LoggedEvent[] => [
  { id: 'baseline', body: { kind: 'set', values: start } },
  ...intents.map((body, i) => ({ id: `e${i}`, body })),
];
const played = (start: ScoreboardFields, printed: PrintedSet[]) =>
  logOf(start, printed.flatMap(tennisSet));

describe('tennis games: advantage or no-ad', () => {
  const deuce = tennis({ homeScorePointsTennis: '40', awayScorePointsTennis: '40' });

  it('with advantage, 40–40 goes to AD and back to deuce', () => {
    const ad = run(deuce, [point('home')]);
    expect(points2(ad)).toEqual(['AD', '40']);
    expect(points2(run(ad, [point('away')]))).toEqual(['40', '40']);
    expect(run(ad, [point('home')]).homeScoreGames).toBe(1);
  });

  it('no-ad: the point at deuce wins the game', () => {
    const won = run({ ...deuce, tennisNoAd: true }, [point('away')]);
    expect(points2(won)).toEqual(['0', '0']);
    expect([won.homeScoreGames, won.awayScoreGames]).toEqual([0, 1]);
  });
});

describe('tennis tiebreak at 6–6', () => {
  const sixAll = (over: Partial<ScoreboardFields> = {}) =>
    tennis({ homeScoreGames: 6, awayScoreGames: 6, homeSet1: 6, awaySet1: 6, ...over });

  it('counts 1, 2, 3… and needs 7 with a lead of 2', () => {
    const f = sixAll();
    expect(inTiebreak(f)).toBe(true);
    const sixFive = run(f, [...points('home', 5), ...points('away', 5), point('home')]);
    expect(points2(sixFive)).toEqual(['6', '5']);
    const sixSix = run(sixFive, [point('away')]);
    expect(points2(sixSix)).toEqual(['6', '6']);
    const sevenSix = run(sixSix, [point('home')]);
    expect(points2(sevenSix)).toEqual(['7', '6']); // 7 is not enough without the lead of 2
    const set = run(sevenSix, [point('home')]);
    expect(sets(set).slice(0, 2)).toEqual(['7-6', '0-0']);
    expect([set.gamePeriod, set.homeScoreGames, set.awayScoreGames]).toEqual(['Set 2', 0, 0]);
    expect(points2(set)).toEqual(['0', '0']);
  });

  it('changes serve after the first point, then every two; the receiver serves the next set', () => {
    const f = sixAll({ homePossession: true });
    const serving = [f];
    for (const team of ['home', 'away', 'home', 'away', 'home'] as Team[])
      serving.push(run(serving.at(-1)!, [point(team)]));
    expect(serving.map((s) => s.homePossession)).toEqual([true, false, false, true, true, false]);
    // Home served the tiebreak's first point: away serves the first game of the next set.
    const set = run(f, points('home', 7));
    expect([set.gamePeriod, set.homePossession]).toEqual(['Set 2', false]);
    const set2 = run(run(f, [point('away')]), points('home', 7));
    expect(set2.homePossession).toBe(false);
  });

  it('the line score prints the set 7–6 with the tiebreak points; a void takes it back', () => {
    const log = played(tennis(), [{ home: 7, away: 6, tiebreakLoser: 5 }]);
    const line = lineScore(defaultScoreboard, log);
    expect(line.periods[0]).toMatchObject({
      label: 'Set 1',
      home: { points: 7 },
      away: { points: 6 },
      tiebreak: { home: 7, away: 5 },
    });
    const last = log.at(-1)!;
    const undone = [...log, { id: 'v', body: { kind: 'void' as const, target: last.id } }];
    const back = lineScore(defaultScoreboard, undone);
    expect(back.periods).toHaveLength(1);
    expect(back.periods[0]).toMatchObject({ live: true, home: { points: 6 }, away: { points: 6 } });
    expect(back.periods[0]!.tiebreak).toBeUndefined();
    expect(points2(foldGame(defaultScoreboard, undone))).toEqual(['6', '5']);
  });
});

describe('the deciding set, best of 3 or 5', () => {
  const oneAll = (over: Partial<ScoreboardFields>) =>
    tennis({
      gamePeriod: 'Set 3',
      homeSet1: 6,
      awaySet1: 3,
      homeSet2: 4,
      awaySet2: 6,
      ...over,
    });

  it('a tiebreak at 6–6 by default, like the other sets', () => {
    const f = oneAll({ homeScoreGames: 6, awayScoreGames: 6, homeSet3: 6, awaySet3: 6 });
    const won = run(f, points('away', 7));
    expect([won.homeSet3, won.awaySet3, won.gamePeriod]).toEqual([6, 7, 'Final']);
  });

  it('a tiebreak at 12–12: 6–6 and 7–6 play on, 13–12 by a tiebreak ends it', () => {
    const at = (h: number, a: number) =>
      oneAll({
        tennisDecider: 'tiebreak12',
        homeScoreGames: h,
        awayScoreGames: a,
        homeSet3: h,
        awaySet3: a,
      });
    expect(inTiebreak(at(6, 6))).toBe(false);
    const sevenSix = run(at(6, 6), points('home', 4));
    expect([sevenSix.homeSet3, sevenSix.gamePeriod]).toEqual([7, 'Set 3']);
    expect(inTiebreak(at(12, 12))).toBe(true);
    const won = run(at(12, 12), points('home', 7));
    expect([won.homeSet3, won.awaySet3, won.gamePeriod]).toEqual([13, 12, 'Final']);
    // The rule is the deciding set's only: set 1 still has its tiebreak at 6–6.
    expect(
      inTiebreak(tennis({ tennisDecider: 'tiebreak12', homeScoreGames: 6, awayScoreGames: 6 })),
    ).toBe(true);
  });

  it('a 10-point match tiebreak instead of the set, printed 1–0 with its points', () => {
    const f = oneAll({ tennisDecider: 'matchTiebreak' });
    expect(inTiebreak(f)).toBe(true);
    const nine = run(f, [...points('away', 8), ...points('home', 9)]);
    expect(points2(nine)).toEqual(['9', '8']);
    expect(nine.gamePeriod).toBe('Set 3');
    const log = logOf(f, [...points('away', 8), ...points('home', 10)]);
    const won = foldGame(defaultScoreboard, log);
    expect([won.homeSet3, won.awaySet3, won.gamePeriod]).toEqual([1, 0, 'Final']);
    expect(lineScore(defaultScoreboard, log).periods[2]).toMatchObject({
      home: { points: 1 },
      away: { points: 0 },
      tiebreak: { home: 10, away: 8 },
    });
  });

  it('an advantage set: no tiebreak, won by two games', () => {
    const f = oneAll({
      tennisDecider: 'advantage',
      homeScoreGames: 6,
      awayScoreGames: 6,
      homeSet3: 6,
      awaySet3: 6,
    });
    expect(inTiebreak(f)).toBe(false);
    const sevenSix = run(f, points('home', 4));
    expect([sevenSix.homeSet3, sevenSix.gamePeriod]).toEqual([7, 'Set 3']);
    const won = run(sevenSix, points('home', 4));
    expect([won.homeSet3, won.awaySet3, won.gamePeriod]).toEqual([8, 6, 'Final']);
  });

  it('best of 3 ends at two sets won, best of 5 at three', () => {
    const straight = [
      { home: 6, away: 2 },
      { home: 6, away: 3 },
    ];
    expect(foldGame(defaultScoreboard, played(tennis(), straight)).gamePeriod).toBe('Final');
    const five = foldGame(defaultScoreboard, played(tennis({ maxSets: 5 }), straight));
    expect(five.gamePeriod).toBe('Set 3');
    const line = lineScore(defaultScoreboard, played(tennis({ maxSets: 5 }), straight));
    expect(line.periods.map((p) => p.label)).toEqual(['Set 1', 'Set 2', 'Set 3']);
  });

  it('the rules are validated: an unknown deciding set rule or set points are refused', () => {
    expect(scoreboardPatchSchema.safeParse({ tennisDecider: 'tiebreak12' }).success).toBe(true);
    expect(scoreboardPatchSchema.safeParse({ tennisDecider: 'sudden' }).success).toBe(false);
    expect(scoreboardPatchSchema.safeParse({ tennisNoAd: 'yes' }).success).toBe(false);
    expect(scoreboardPatchSchema.safeParse({ homeScorePointsTennis: '12' }).success).toBe(true);
    expect(scoreboardPatchSchema.safeParse({ homeScorePointsTennis: '12a' }).success).toBe(false);
    expect(scoreboardPatchSchema.safeParse({ setPoints: 21 }).success).toBe(true);
    expect(scoreboardPatchSchema.safeParse({ setPoints: 2 }).success).toBe(false);
    expect(scoreboardPatchSchema.safeParse({ decidingSetPoints: 15.5 }).success).toBe(false);
  });
});

describe('replays', () => {
  // Source: the Championships, Wimbledon 2019, gentlemen's singles final, 14 July 2019:
  // N. Djokovic d. R. Federer 7–6(5) 1–6 7–6(4) 4–6 13–12(3), the first final-set tiebreak at
  // 12–12. The set scores and tiebreak scores are official; the order of the points within
  // each game and of the games within each set is invented (match-replays.ts).
  it('the 2019 Wimbledon final, point by point, ends at the official score', () => {
    const start = tennis({
      gameName: 'Wimbledon 2019 final',
      homeTeamName: 'Djokovic',
      awayTeamName: 'Federer',
      maxSets: 5,
      tennisDecider: 'tiebreak12',
    });
    const log = played(start, WIMBLEDON_2019);
    const final = foldGame(defaultScoreboard, log);
    expect(final.gamePeriod).toBe('Final');
    expect(sets(final)).toEqual(['7-6', '1-6', '7-6', '4-6', '13-12']);
    const line = lineScore(defaultScoreboard, log);
    expect(
      line.periods.map(
        (p) =>
          `${p.home!.points}–${p.away!.points}` +
          (p.tiebreak ? `(${Math.min(p.tiebreak.home, p.tiebreak.away)})` : ''),
      ),
    ).toEqual(['7–6(5)', '1–6', '7–6(4)', '4–6', '13–12(3)']);
    expect(line.periods.some((p) => p.live)).toBe(false);
    // Played under the 6–6 rule, the same points would have ended the fifth set at 7–6.
    const early = foldGame(
      defaultScoreboard,
      played({ ...start, tennisDecider: 'tiebreak' }, WIMBLEDON_2019),
    );
    expect(sets(early)[4]).not.toBe('13-12');
  });
});
