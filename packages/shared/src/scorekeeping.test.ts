import { describe, expect, it } from 'vitest';
import { defaultScoreboard, type ScoreboardFields } from './scoreboard.ts';
import {
  applyIntent,
  currentTennisSet,
  periodLabels,
  stepPeriod,
  undoValues,
  type Intent,
} from './scorekeeping.ts';

const game = (over: Partial<ScoreboardFields> = {}): ScoreboardFields => ({
  ...defaultScoreboard,
  ...over,
});
/** Applies intents one after another, as the outbox does when it sends them in order. */
const run = (start: ScoreboardFields, intents: Intent[]) =>
  intents.reduce((f, i) => ({ ...f, ...applyIntent(f, i) }), start);

describe('scores', () => {
  it('adds and takes points, never below 0, and patches only what changed', () => {
    expect(applyIntent(game(), { kind: 'score', team: 'home', by: 1 })).toEqual({ homeScore: 1 });
    expect(applyIntent(game({ awayScore: 5 }), { kind: 'score', team: 'away', by: 3 })).toEqual({
      awayScore: 8,
    });
    expect(applyIntent(game({ homeScore: 1 }), { kind: 'score', team: 'home', by: -2 })).toEqual({
      homeScore: 0,
    });
    expect(applyIntent(game(), { kind: 'score', team: 'home', by: -1 })).toEqual({});
  });

  it('counts Aussie Rules goals as 6 and behinds as 1, Gaelic goals as 3', () => {
    const aussie = run(game({ sportID: 4 }), [
      { kind: 'goal', team: 'home', by: 1 },
      { kind: 'goal', team: 'home', by: 1 },
      { kind: 'behind', team: 'home', by: 1 },
      { kind: 'behind', team: 'away', by: 1 },
    ]);
    expect([aussie.homeScoreGoals, aussie.homeScorePoints, aussie.homeScore]).toEqual([2, 1, 13]);
    expect(aussie.awayScore).toBe(1);
    const gaelic = run(game({ sportID: 13 }), [
      { kind: 'goal', team: 'away', by: 1 },
      { kind: 'behind', team: 'away', by: 1 },
      { kind: 'behind', team: 'away', by: 1 },
    ]);
    expect(gaelic.awayScore).toBe(5);
    const back = run(gaelic, [{ kind: 'goal', team: 'away', by: -1 }]);
    expect([back.awayScoreGoals, back.awayScore]).toEqual([0, 2]);
  });

  it('caps counts with a natural top and floors every count at 0', () => {
    expect(applyIntent(game({ down: 4 }), { kind: 'count', field: 'down', by: 1 })).toEqual({});
    expect(
      applyIntent(game({ homeFouls: 0 }), { kind: 'count', field: 'homeFouls', by: -1 }),
    ).toEqual({});
    expect(applyIntent(game({ toGo: 10 }), { kind: 'count', field: 'toGo', by: -1 })).toEqual({
      toGo: 9,
    });
  });

  it('toggles flags', () => {
    expect(applyIntent(game(), { kind: 'toggle', field: 'base2' })).toEqual({ base2: true });
    expect(applyIntent(game({ homeManUp: true }), { kind: 'toggle', field: 'homeManUp' })).toEqual({
      homeManUp: false,
    });
  });
});

describe('periods', () => {
  it('labels each sport the way people say it', () => {
    expect(periodLabels(2).slice(0, 4)).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
    expect(periodLabels(3)).toContain('2nd Half');
    expect(periodLabels(12)[0]).toBe('1st Period');
    expect(periodLabels(7).slice(0, 3)).toEqual(['Top 1st', 'Bottom 1st', 'Top 2nd']);
    expect(periodLabels(7)).toContain('Top 11th');
    expect(periodLabels(8, 3)).toEqual(['Set 1', 'Set 2', 'Set 3']);
  });

  it('steps from Starting Soon through the periods to Final, and back', () => {
    const f = game({ sportID: 2 });
    expect(stepPeriod(f, 1)).toBe('Q1');
    expect(stepPeriod({ ...f, gamePeriod: 'Q4' }, 1)).toBe('OT');
    expect(stepPeriod({ ...f, gamePeriod: 'OT' }, 1)).toBe('Final');
    expect(stepPeriod({ ...f, gamePeriod: 'Final' }, 1)).toBe('Final');
    expect(stepPeriod({ ...f, gamePeriod: 'q2' }, -1)).toBe('Q1');
    expect(stepPeriod({ ...f, gamePeriod: 'Q1' }, -1)).toBe('Starting Soon');
    expect(stepPeriod({ ...f, gamePeriod: 'Starting Soon' }, -1)).toBe('Starting Soon');
    // A label typed by hand is not in the list: next starts the periods.
    expect(stepPeriod({ ...f, gamePeriod: 'Warm-up' }, 1)).toBe('Q1');
  });
});

describe('tennis', () => {
  const point = (team: 'home' | 'away'): Intent => ({ kind: 'tennisPoint', team });
  const tennis = (over: Partial<ScoreboardFields> = {}) =>
    game({ sportID: 8, maxSets: 3, gamePeriod: 'Set 1', ...over });

  it('counts 0, 15, 30, 40, then the game', () => {
    const f = run(tennis(), [point('home'), point('home'), point('home')]);
    expect(f.homeScorePointsTennis).toBe('40');
    const won = run(f, [point('home')]);
    expect([won.homeScorePointsTennis, won.awayScorePointsTennis]).toEqual(['0', '0']);
    expect([won.homeScoreGames, won.homeSet1]).toEqual([1, 1]);
    expect(won.homePossession).toBe(!f.homePossession);
  });

  it('goes through deuce and advantage', () => {
    const deuce = tennis({ homeScorePointsTennis: '40', awayScorePointsTennis: '40' });
    const ad = run(deuce, [point('away')]);
    expect(ad.awayScorePointsTennis).toBe('AD');
    const back = run(ad, [point('home')]);
    expect([back.homeScorePointsTennis, back.awayScorePointsTennis]).toEqual(['40', '40']);
    const won = run(ad, [point('away')]);
    expect([won.awayScoreGames, won.awayScorePointsTennis]).toEqual([1, '0']);
  });

  it('wins a set at 6 with a lead of two, moves to the next set, and ends the match', () => {
    const f = tennis({ homeScoreGames: 5, awayScoreGames: 4, homeSet1: 5, awaySet1: 4 });
    const set = run(f, [point('home'), point('home'), point('home'), point('home')]);
    expect([set.homeSet1, set.awaySet1]).toEqual([6, 4]);
    expect([set.homeScoreGames, set.awayScoreGames]).toEqual([0, 0]);
    expect(set.gamePeriod).toBe('Set 2');
    expect(currentTennisSet(set)).toBe(2);
    const fourPoints = [point('home'), point('home'), point('home'), point('home')];
    let match = set;
    for (let g = 0; g < 6; g++) match = run(match, fourPoints);
    expect([match.homeSet2, match.awaySet2]).toEqual([6, 0]);
    expect(match.gamePeriod).toBe('Final');
  });

  it('plays a 6–6 set to 7 by a tiebreak counted 1, 2, 3…', () => {
    const f = tennis({ homeScoreGames: 6, awayScoreGames: 6, homeSet1: 6, awaySet1: 6 });
    const four = run(f, [point('away'), point('away'), point('away'), point('away')]);
    expect([four.homeScorePointsTennis, four.awayScorePointsTennis]).toEqual(['0', '4']);
    const won = run(four, [point('away'), point('away'), point('away')]);
    expect([won.homeSet1, won.awaySet1]).toEqual([6, 7]);
    expect(won.gamePeriod).toBe('Set 2');
  });
});

describe('baseball', () => {
  const ball: Intent = { kind: 'pitch', call: 'ball' };
  const strike: Intent = { kind: 'pitch', call: 'strike' };
  const base = (over: Partial<ScoreboardFields> = {}) =>
    game({ sportID: 7, gamePeriod: 'Top 1st', ...over });

  it('walks the batter on the fourth ball, forcing runners and a run home', () => {
    const walk = run(base({ base1: true, base2: true, base3: true }), [ball, ball, ball, ball]);
    expect([walk.balls, walk.base1, walk.base2, walk.base3]).toEqual([0, true, true, true]);
    // Top of the inning: the away team bats.
    expect([walk.awayScore, walk.homeScore]).toEqual([1, 0]);
    const first = run(base(), [ball, ball, ball, ball]);
    expect([first.base1, first.base2]).toEqual([true, false]);
  });

  it('makes three strikes an out and three outs the other half of the inning', () => {
    const out = run(base({ balls: 2 }), [strike, strike, strike]);
    expect([out.outs, out.balls, out.strikes]).toEqual([1, 0, 0]);
    const side = run(base({ outs: 2, base1: true, homePossession: false }), [
      { kind: 'pitch', call: 'out' },
    ]);
    expect([side.outs, side.base1, side.homePossession, side.gamePeriod]).toEqual([
      0,
      false,
      true,
      'Bottom 1st',
    ]);
  });
});

describe('volleyball and corrections', () => {
  it('gives the set to its winner and starts the next with 0–0', () => {
    const f = game({ sportID: 6, gamePeriod: 'Set 1', homeScore: 25, awayScore: 20 });
    expect(applyIntent(f, { kind: 'setWon', team: 'home' })).toEqual({
      homeScoreGames: 1,
      homeScore: 0,
      awayScore: 0,
      gamePeriod: 'Set 2',
    });
  });

  it('Sets ± corrects the tally and the set being played follows it', () => {
    const sets = { sportID: 6, homeScoreGames: 2, awayScoreGames: 1 };
    const minus = (f: ScoreboardFields, team: 'home' | 'away', by = -1) =>
      applyIntent(f, { kind: 'count', field: `${team}ScoreGames`, by });
    // A set given by mistake, taken back: 2–1 in Set 4 becomes 1–1 in Set 3.
    expect(minus(game({ ...sets, gamePeriod: 'Set 4' }), 'home')).toEqual({
      homeScoreGames: 1,
      gamePeriod: 'Set 3',
    });
    // The match's last set taken back reopens it; a set given that wins the match ends it.
    const final = game({ ...sets, homeScoreGames: 3, gamePeriod: 'Final' });
    expect(minus(final, 'home')).toEqual({ homeScoreGames: 2, gamePeriod: 'Set 4' });
    expect(minus(game({ ...sets, gamePeriod: 'Set 4' }), 'home', 1)).toEqual({
      homeScoreGames: 3,
      gamePeriod: 'Final',
    });
    // Best of 3: one set each is the deciding 3rd set; a second set won ends it.
    const bo3 = game({ ...sets, homeScoreGames: 1, volleyballBestOf: 3, gamePeriod: 'Set 3' });
    expect(minus(bo3, 'away', 1)).toEqual({ awayScoreGames: 2, gamePeriod: 'Final' });
    // Nothing to take back changes nothing; before the start the label stays.
    expect(minus(game({ sportID: 6, gamePeriod: 'Set 1' }), 'home')).toEqual({});
    const soon = game({ sportID: 6, gamePeriod: 'Starting Soon' });
    expect(minus(soon, 'home', 1)).toEqual({ homeScoreGames: 1 });
    // A match scored from its 2nd set on, the tally never entered: the label moves a set on
    // and back with Sets ±.
    const midMatch = game({ sportID: 6, gamePeriod: 'Set 2' });
    const given = { ...midMatch, ...minus(midMatch, 'home', 1) };
    expect(given).toMatchObject({ homeScoreGames: 1, gamePeriod: 'Set 3' });
    expect(minus(given, 'home')).toEqual({ homeScoreGames: 0, gamePeriod: 'Set 2' });
  });

  it('undoes any intent by setting back the values it replaced', () => {
    const f = game({ sportID: 8, homeScorePointsTennis: 'AD', awayScorePointsTennis: '40' });
    const patch = applyIntent(f, { kind: 'tennisPoint', team: 'home' });
    const after = { ...f, ...patch };
    const undone = run(after, [{ kind: 'set', values: undoValues(f, patch) }]);
    expect(undone).toEqual(f);
  });

  it('sets a field directly, and a set to the same value changes nothing', () => {
    expect(applyIntent(game(), { kind: 'set', values: { gamePeriod: 'Final' } })).toEqual({
      gamePeriod: 'Final',
    });
    expect(applyIntent(game(), { kind: 'set', values: { homeScore: 0 } })).toEqual({});
  });
});
