import { describe, expect, it } from 'vitest';
import { defaultScoreboard, type ScoreboardFields } from './scoreboard.ts';
import { foldGame, isHeld, type LoggedEvent } from './game-log.ts';
import { lineScore, type LineScore } from './line-score.ts';
import { volleyballSetWinner, type Intent, type Team } from './scorekeeping.ts';

/** A log as the server keeps it: a baseline holding the game's first state, then the taps. */
function logOf(start: Partial<ScoreboardFields>, intents: Intent[]): LoggedEvent[] {
  return [
    { id: 'baseline', body: { kind: 'set', values: { ...defaultScoreboard, ...start } } },
    ...intents.map((body, i) => ({ id: `e${i}`, body })),
  ];
}
const score = (team: Team, by: number): Intent => ({ kind: 'score', team, by });
const next: Intent = { kind: 'period', step: 1 };
/** Each period's cells as "home-away" ("-" for a half not played), for short assertions. */
const cells = (line: LineScore) =>
  line.periods.map((p) => `${p.label}:${p.home?.points ?? '-'}-${p.away?.points ?? '-'}`);

describe('line score by quarter, half or period', () => {
  it('credits each score to the quarter it was made in; overtime shows once reached', () => {
    const log = logOf({ sportID: 2 }, [
      next, // Q1
      score('home', 2),
      score('away', 3),
      next, // Q2
      score('home', 2),
      next, // Q3
      next, // Q4
      score('away', 1),
    ]);
    expect(cells(lineScore(defaultScoreboard, log))).toEqual([
      'Q1:2-3',
      'Q2:2-0',
      'Q3:0-0',
      'Q4:0-1',
    ]);
    const overtime = [...log, { id: 'n', body: next }, { id: 'ot', body: score('home', 3) }];
    expect(cells(lineScore(defaultScoreboard, overtime)).at(-1)).toBe('OT:3-0');
  });

  it('a voided tap leaves its quarter; a correction at the final whistle is the last period’s', () => {
    const log = logOf({ sportID: 2, gamePeriod: 'Q1' }, [score('home', 2), score('home', 3)]);
    const voided: LoggedEvent[] = [...log, { id: 'v', body: { kind: 'void', target: 'e1' } }];
    expect(cells(lineScore(defaultScoreboard, voided))[0]).toBe('Q1:2-0');
    const corrected = [
      ...log,
      { id: 'q4', body: { kind: 'set', values: { gamePeriod: 'Q4' } } },
      { id: 'f', body: { kind: 'set', values: { gamePeriod: 'Final' } } },
      { id: 'c', body: score('away', 1) },
    ] satisfies LoggedEvent[];
    expect(cells(lineScore(defaultScoreboard, corrected))).toEqual([
      'Q1:5-0',
      'Q2:0-0',
      'Q3:0-0',
      'Q4:0-1',
    ]);
  });

  it('a held tap counts only once a scorer decides, where the decision puts it', () => {
    const log: LoggedEvent[] = [
      ...logOf({ sportID: 2, gamePeriod: 'Q1' }, [score('home', 2), next]),
      { id: 'h', body: score('away', 3), held: true },
    ];
    expect(cells(lineScore(defaultScoreboard, log)).slice(0, 2)).toEqual(['Q1:2-0', 'Q2:0-0']);
    const applied: LoggedEvent[] = [
      ...log,
      { id: 'r', body: { kind: 'resolve', events: ['h'], apply: 'now' } },
    ];
    expect(cells(lineScore(defaultScoreboard, applied)).slice(0, 2)).toEqual(['Q1:2-0', 'Q2:0-3']);
    const discarded: LoggedEvent[] = [
      ...log,
      { id: 'r', body: { kind: 'resolve', events: ['h'], apply: 'discard' } },
    ];
    expect(cells(lineScore(defaultScoreboard, discarded)).slice(0, 2)).toEqual([
      'Q1:2-0',
      'Q2:0-0',
    ]);
  });

  it('soccer counts by half, and half time is not a period of its own', () => {
    const log = logOf({ sportID: 3, gamePeriod: '1st Half' }, [
      score('away', 1),
      next, // Half Time
      score('home', 1), // a correction at half time: the first half's
      next, // 2nd Half
      score('home', 1),
    ]);
    expect(cells(lineScore(defaultScoreboard, log))).toEqual(['1st Half:1-1', '2nd Half:1-0']);
  });

  it('Gaelic keeps goals and points per half, the total at 3 a goal', () => {
    const log = logOf({ sportID: 13, gamePeriod: '1st Half' }, [
      { kind: 'goal', team: 'home', by: 1 },
      { kind: 'behind', team: 'home', by: 1 },
      { kind: 'behind', team: 'away', by: 1 },
      next,
      next,
      { kind: 'goal', team: 'away', by: 2 },
    ]);
    const line = lineScore(defaultScoreboard, log);
    expect(line.kind).toBe('goals');
    expect(line.periods.map((p) => [p.label, p.home, p.away])).toEqual([
      ['1st Half', { points: 4, goals: 1, behinds: 1 }, { points: 1, goals: 0, behinds: 1 }],
      ['2nd Half', { points: 0, goals: 0, behinds: 0 }, { points: 6, goals: 2, behinds: 0 }],
    ]);
  });

  it('Aussie Rules: a goal is 6', () => {
    const log = logOf({ sportID: 4, gamePeriod: 'Q1' }, [
      { kind: 'goal', team: 'away', by: 1 },
      { kind: 'behind', team: 'away', by: 1 },
    ]);
    expect(lineScore(defaultScoreboard, log).periods[0]!.away).toEqual({
      points: 7,
      goals: 1,
      behinds: 1,
    });
  });
});

// Source: ESPN box score of the 2011 World Series, Game 6, Texas at St. Louis, 27 October 2011
// (scores.espn.go.com/mlb/recap?gameId=311027124): TEX 1 1 0 1 1 0 3 0 0 2 0 — 9 15 2,
// STL 2 0 0 1 0 1 0 1 2 2 1 — 10 13 3, won by David Freese's home run leading off the bottom of
// the 11th. Runs, hits and errors are replayed per half inning (the order of plays within a half
// inning is ours); three outs end each half as the scorer taps them.
const TEX = { runs: [1, 1, 0, 1, 1, 0, 3, 0, 0, 2, 0], hits: [2, 2, 1, 2, 2, 0, 3, 0, 1, 2, 0] };
const STL = { runs: [2, 0, 0, 1, 0, 1, 0, 1, 2, 2, 1], hits: [1, 1, 0, 1, 1, 2, 0, 1, 3, 2, 1] };
// Errors charged to the fielding team: the half inning the error was made in (ours).
const TEX_ERRORS_IN = [4, 5]; // made while St. Louis batted
const STL_ERRORS_IN = [4, 5, 6]; // made while Texas batted

function worldSeries2011Game6(): Intent[] {
  const out: Intent = { kind: 'pitch', call: 'out' };
  const intents: Intent[] = [next]; // Top 1st
  for (let inning = 1; inning <= 11; inning++) {
    for (const team of ['away', 'home'] as const) {
      const line = team === 'away' ? TEX : STL;
      for (let h = 0; h < line.hits[inning - 1]!; h++) intents.push({ kind: 'hit' });
      const fieldingErrors = team === 'away' ? STL_ERRORS_IN : TEX_ERRORS_IN;
      if (fieldingErrors.includes(inning)) intents.push({ kind: 'error' });
      const runs = line.runs[inning - 1]!;
      if (runs) intents.push(score(team, runs));
      // The walk-off run ends the game at once: no outs in the bottom of the 11th.
      if (inning === 11 && team === 'home') {
        intents.push({ kind: 'set', values: { gamePeriod: 'Final' } });
        break;
      }
      intents.push({ kind: 'pitch', call: 'strike' }, out, out, out);
    }
  }
  return intents;
}

describe('baseball line score', () => {
  it('replays 2011 World Series Game 6 to its line score and R H E, 11 innings', () => {
    const log = logOf({ sportID: 7 }, worldSeries2011Game6());
    const final = foldGame(defaultScoreboard, log);
    expect([final.awayScore, final.homeScore, final.gamePeriod]).toEqual([9, 10, 'Final']);
    const line = lineScore(defaultScoreboard, log);
    expect(line.kind).toBe('innings');
    expect(line.periods.map((p) => p.away?.points)).toEqual(TEX.runs);
    expect(line.periods.map((p) => p.home?.points)).toEqual(STL.runs);
    expect(line.rhe).toEqual({
      away: { runs: 9, hits: 15, errors: 2 },
      home: { runs: 10, hits: 13, errors: 3 },
    });
  });

  it('shows nine innings from the start, the halves not yet played empty', () => {
    const log = logOf({ sportID: 7 }, [next, score('away', 2), ...Array(3).fill(out())]);
    expect(cells(lineScore(defaultScoreboard, log))).toEqual([
      '1:0-2',
      ...['2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `${n}:---`),
    ]);
  });

  it('a hit starts the count over; three strikes, a walk or an out did already', () => {
    const start = { ...defaultScoreboard, sportID: 7, gamePeriod: 'Top 1st', balls: 2, strikes: 1 };
    const after = foldGame(start, [{ id: 'h', body: { kind: 'hit' } }]);
    expect([after.balls, after.strikes]).toEqual([0, 0]);
    const error = foldGame(start, [{ id: 'e', body: { kind: 'error' } }]);
    expect(error).toEqual(start);
  });
});

function out(): Intent {
  return { kind: 'pitch', call: 'out' };
}

/** Points of one set, alternating while both still need points so the set ends at its score. */
function rallies(home: number, away: number, winner: Team): Intent[] {
  const intents: Intent[] = [];
  let h = 0;
  let a = 0;
  // Everything but the winning point, then the winning point.
  const [hTo, aTo] = winner === 'home' ? [home - 1, away] : [home, away - 1];
  while (h < hTo || a < aTo) {
    if (h < hTo) {
      intents.push(score('home', 1));
      h++;
    }
    if (a < aTo) {
      intents.push(score('away', 1));
      a++;
    }
  }
  intents.push(score(winner, 1), { kind: 'setWon', team: winner });
  return intents;
}

describe('volleyball', () => {
  // Source: Olympic women's volleyball final, Paris, 11 August 2024: Italy beat the United
  // States 3–0 (25–18, 25–20, 25–17). Each set is replayed rally by rally (the order of the
  // rallies is ours), and the scorer confirms each set.
  it('replays the Paris 2024 women’s final: every set’s score kept, the third set ends it', () => {
    const log = logOf(
      { sportID: 6, gamePeriod: 'Set 1', homeTeamName: 'Italy', awayTeamName: 'United States' },
      [...rallies(25, 18, 'home'), ...rallies(25, 20, 'home'), ...rallies(25, 17, 'home')],
    );
    const final = foldGame(defaultScoreboard, log);
    expect([final.homeScoreGames, final.awayScoreGames, final.gamePeriod]).toEqual([3, 0, 'Final']);
    expect(cells(lineScore(defaultScoreboard, log))).toEqual([
      'Set 1:25-18',
      'Set 2:25-20',
      'Set 3:25-17',
    ]);
  });

  it('the set being played shows live; voiding "Won set" brings its points back', () => {
    const log = logOf({ sportID: 6, gamePeriod: 'Set 1' }, [
      ...rallies(24, 26, 'away'),
      score('home', 1),
    ]);
    const line = lineScore(defaultScoreboard, log);
    expect(cells(line)).toEqual(['Set 1:24-26', 'Set 2:1-0']);
    expect(line.periods[1]!.live).toBe(true);
    const setWon = log.findIndex((e) => e.body.kind === 'setWon');
    const undone = [...log, { id: 'v', body: { kind: 'void', target: log[setWon]!.id } }];
    expect(cells(lineScore(defaultScoreboard, undone as LoggedEvent[]))).toEqual(['Set 1:25-26']);
  });

  it('a set taken back with Sets − leaves the line score, which then matches the board', () => {
    const log = logOf({ sportID: 6, gamePeriod: 'Set 1' }, [
      ...rallies(2, 1, 'home'),
      { kind: 'setWon', team: 'away' }, // tapped by mistake
      { kind: 'count', field: 'awayScoreGames', by: -1 },
      score('home', 3),
    ]);
    const board = foldGame(defaultScoreboard, log);
    expect([board.homeScoreGames, board.awayScoreGames]).toEqual([1, 0]);
    expect(cells(lineScore(defaultScoreboard, log))).toEqual(['Set 1:2-1', 'Set 2:3-0']);
  });

  it('Sets − counts wherever it was tapped: the set it takes back never stays as played', () => {
    // The log as the server appends it: each tap with the set the scorer's screen showed when
    // it was made, held (not folded) where the server's rule says so. The screen may still
    // show the set just ended for a moment after "Won set" was answered.
    const start = { ...defaultScoreboard, sportID: 6, gamePeriod: 'Set 1' };
    const taps: [Intent, string][] = [
      [score('home', 2), 'Set 1'],
      [score('away', 1), 'Set 1'],
      [{ kind: 'setWon', team: 'home' }, 'Set 1'],
      [{ kind: 'setWon', team: 'away' }, 'Set 2'], // by mistake
      [score('away', 1), 'Set 3'],
      [{ kind: 'count', field: 'awayScoreGames', by: -1 }, 'Set 2'],
    ];
    const log: LoggedEvent[] = [{ id: 'baseline', body: { kind: 'set', values: start } }];
    for (const [body, madeIn] of taps) {
      const now = foldGame(defaultScoreboard, log);
      log.push({
        id: `e${log.length}`,
        body,
        ...(isHeld(now, body, madeIn) ? { held: true } : {}),
      });
    }
    expect(log.some((e) => e.held)).toBe(false);
    const board = foldGame(defaultScoreboard, log);
    expect([board.homeScoreGames, board.awayScoreGames]).toEqual([1, 0]);
    expect(cells(lineScore(defaultScoreboard, log))).toEqual(['Set 1:2-1', 'Set 2:0-1']);
    // The set being played follows the corrected tally: 1–0 is Set 2, where the point went. A
    // tap from a screen still showing Set 3 is held, a tap of Set 2 counts.
    expect(board.gamePeriod).toBe('Set 2');
    expect(isHeld(board, score('away', 1), 'Set 3')).toBe(true);
    expect(isHeld(board, score('away', 1), 'Set 2')).toBe(false);
  });

  it('best of 3: the deciding set is the 3rd, to 15, and the 2nd set won ends the match', () => {
    const bestOf3 = { sportID: 6, gamePeriod: 'Set 1', volleyballBestOf: 3 as const };
    const log = logOf(bestOf3, [
      ...rallies(25, 20, 'home'),
      ...rallies(22, 25, 'away'),
      ...rallies(14, 12, 'home').slice(0, -2), // 13–12 in the third, not yet won
    ]);
    const third = foldGame(defaultScoreboard, log);
    expect([third.homeScoreGames, third.awayScoreGames, third.gamePeriod]).toEqual([1, 1, 'Set 3']);
    expect(volleyballSetWinner({ ...third, homeScore: 15, awayScore: 12 })).toBe('home');
    // Best of 5 (the default), 15–12 in the third set is no set yet.
    expect(
      volleyballSetWinner({ ...third, volleyballBestOf: undefined, homeScore: 15, awayScore: 12 }),
    ).toBeNull();
    const won = [
      ...log,
      { id: 'p1', body: score('home', 2) },
      { id: 'w', body: { kind: 'setWon', team: 'home' } },
    ] satisfies LoggedEvent[];
    const final = foldGame(defaultScoreboard, won);
    expect([final.homeScoreGames, final.awayScoreGames, final.gamePeriod]).toEqual([2, 1, 'Final']);
    expect(cells(lineScore(defaultScoreboard, won))).toEqual([
      'Set 1:25-20',
      'Set 2:22-25',
      'Set 3:15-12',
    ]);
    // The match is won: no set is offered as won any more, whatever the points say.
    expect(volleyballSetWinner({ ...final, homeScore: 25, awayScore: 0 })).toBeNull();
  });

  it('best of 5: the 2nd set won moves on to the 3rd', () => {
    const log = logOf({ sportID: 6, gamePeriod: 'Set 1' }, [
      ...rallies(25, 20, 'home'),
      ...rallies(25, 22, 'home'),
    ]);
    const f = foldGame(defaultScoreboard, log);
    expect([f.homeScoreGames, f.gamePeriod]).toEqual([2, 'Set 3']);
  });

  it('a set is won at 25 by 2, 26–24 after deuce, and at 15 in the deciding fifth', () => {
    const at = (homeScore: number, awayScore: number, sets = [0, 0]) =>
      volleyballSetWinner({
        homeScore,
        awayScore,
        homeScoreGames: sets[0]!,
        awayScoreGames: sets[1]!,
      });
    expect(at(25, 20)).toBe('home');
    expect(at(25, 24)).toBeNull();
    expect(at(24, 26)).toBe('away');
    expect(at(15, 13, [2, 2])).toBe('home');
    expect(at(15, 13, [2, 1])).toBeNull();
    expect(
      volleyballSetWinner({
        homeScore: 21,
        awayScore: 19,
        homeScoreGames: 0,
        awayScoreGames: 0,
        setPoints: 21,
      }),
    ).toBe('home');
    // The deciding set's points are the game's own too.
    const fifth = { homeScoreGames: 2, awayScoreGames: 2, decidingSetPoints: 25 };
    expect(volleyballSetWinner({ homeScore: 15, awayScore: 13, ...fifth })).toBeNull();
    expect(volleyballSetWinner({ homeScore: 25, awayScore: 23, ...fifth })).toBe('home');
  });
});

describe('tennis line score', () => {
  it('shows only the sets played, the current one live', () => {
    const f = {
      ...defaultScoreboard,
      sportID: 8,
      maxSets: 5,
      gamePeriod: 'Set 3',
      homeSet1: 7,
      awaySet1: 6,
      homeSet2: 1,
      awaySet2: 6,
      homeSet3: 2,
      awaySet3: 1,
    };
    const line = lineScore(defaultScoreboard, [
      { id: 'baseline', body: { kind: 'set', values: f } },
    ]);
    expect(cells(line)).toEqual(['Set 1:7-6', 'Set 2:1-6', 'Set 3:2-1']);
    expect(line.periods.map((p) => !!p.live)).toEqual([false, false, true]);
  });
});
