import { describe, expect, it } from 'vitest';
import { boxScore } from './box-score.ts';
import type { GameEventBody, LoggedEvent } from './game-log.ts';
import { defaultScoreboard, type ScoreboardFields } from './scoreboard.ts';
import type { Team } from './scorekeeping.ts';

/** A log as the server keeps it: a baseline, then the events under the ids given. */
function logOf(start: Partial<ScoreboardFields>, events: [string, GameEventBody][]): LoggedEvent[] {
  return [
    { id: 'baseline', body: { kind: 'set', values: { ...defaultScoreboard, ...start } } },
    ...events.map(([id, body]) => ({ id, body })),
  ];
}
const score = (team: Team, by: number, player?: string): GameEventBody =>
  player ? { kind: 'score', team, by, player } : { kind: 'score', team, by };
const scorer = (team: Team, player: string, target: string): GameEventBody => ({
  kind: 'scorer',
  team,
  player,
  target,
});
const box = (log: LoggedEvent[]) => boxScore(defaultScoreboard, log);

describe('box score', () => {
  it('totals each player’s points, from the tap itself or a later naming of it', () => {
    const log = logOf({ sportID: 2, gamePeriod: 'Q1' }, [
      ['a', score('home', 2, 'ann')],
      ['b', score('home', 3)],
      ['c', scorer('home', 'bo', 'b')],
      ['d', score('away', 2)], // nobody named: counts on the board, in nobody's line
      ['e', score('home', 2)],
      ['f', scorer('home', 'ann', 'e')],
    ]);
    expect(box(log)).toEqual({
      home: [
        { player: 'ann', points: 4 },
        { player: 'bo', points: 3 },
      ],
      away: [],
    });
  });

  it('a voided tap, or a voided naming, takes the credit back; the last naming wins', () => {
    const log = logOf({ sportID: 2, gamePeriod: 'Q1' }, [
      ['a', score('home', 2, 'ann')],
      ['b', score('home', 3)],
      ['c', scorer('home', 'bo', 'b')],
      ['d', scorer('home', 'cy', 'b')],
      ['v1', { kind: 'void', target: 'a' }],
    ]);
    expect(box(log).home).toEqual([{ player: 'cy', points: 3 }]);
    const unnamed = [...log, { id: 'v2', body: { kind: 'void', target: 'd' } } as LoggedEvent];
    expect(box(unnamed).home).toEqual([{ player: 'bo', points: 3 }]);
  });

  it('credits what the fold applied: a −1 at 0 takes nothing, and a player at 0 is left out', () => {
    const log = logOf({ sportID: 2, gamePeriod: 'Q1' }, [
      ['a', score('away', -1, 'ann')],
      ['b', score('away', 1, 'bo')],
      ['c', score('away', -1, 'bo')],
      ['d', score('away', 1, 'cy')],
    ]);
    expect(box(log).away).toEqual([{ player: 'cy', points: 1 }]);
  });

  it('Gaelic: goals and points per player, the total at 3 a goal', () => {
    const log = logOf({ sportID: 13, gamePeriod: '1st Half' }, [
      ['a', { kind: 'goal', team: 'home', by: 1, player: 'ann' }],
      ['b', { kind: 'behind', team: 'home', by: 1 }],
      ['c', scorer('home', 'ann', 'b')],
      ['d', { kind: 'behind', team: 'home', by: 1, player: 'bo' }],
    ]);
    expect(box(log).home).toEqual([
      { player: 'ann', points: 4, goals: 1, behinds: 1 },
      { player: 'bo', points: 1, goals: 0, behinds: 1 },
    ]);
  });

  it('a held tap is credited only once a scorer applies it', () => {
    const log: LoggedEvent[] = [
      ...logOf({ sportID: 6, gamePeriod: 'Set 2' }, [['a', score('home', 1, 'ann')]]),
      { id: 'late', body: score('home', 1, 'bo'), held: true },
    ];
    expect(box(log).home).toEqual([{ player: 'ann', points: 1 }]);
    const applied = [
      ...log,
      { id: 'r', body: { kind: 'resolve', events: ['late'], apply: 'now' } } as LoggedEvent,
    ];
    expect(box(applied).home).toEqual([
      { player: 'ann', points: 1 },
      { player: 'bo', points: 1 },
    ]);
  });

  it('a naming of a tap that changes nothing on the score credits nothing', () => {
    const log = logOf({ sportID: 2, gamePeriod: 'Q1' }, [
      ['a', { kind: 'count', field: 'homeFouls', by: 1 }],
      ['b', scorer('home', 'ann', 'a')],
    ]);
    expect(box(log)).toEqual({ home: [], away: [] });
  });

  it('baseball: runs and hits per batter, a hit credited to the team batting where it folded', () => {
    const out: GameEventBody = { kind: 'pitch', call: 'out' };
    // Top 1st: the away team bats (homePossession false).
    const log = logOf({ sportID: 7, gamePeriod: 'Top 1st' }, [
      ['h1', { kind: 'hit', team: 'away', player: 'ann' }],
      ['h2', { kind: 'hit', team: 'away' }],
      ['n2', { kind: 'scorer', team: 'away', player: 'bo', target: 'h2', tap: 'hit' }],
      ['r1', score('away', 1, 'ann')],
      ['o1', out],
      ['o2', out],
      ['o3', out],
      // Bottom 1st: the home team bats; a naming of this hit for the away team credits no one.
      ['h3', { kind: 'hit', team: 'home' }],
      ['n3', { kind: 'scorer', team: 'away', player: 'cy', target: 'h3', tap: 'hit' }],
      ['h4', { kind: 'hit', team: 'home', player: 'dee' }],
      ['h5', { kind: 'hit', team: 'home', player: 'dee' }],
      ['v5', { kind: 'void', target: 'h5' }],
    ]);
    expect(box(log)).toEqual({
      away: [
        { player: 'ann', points: 1, hits: 1 },
        { player: 'bo', points: 0, hits: 1 },
      ],
      home: [{ player: 'dee', points: 0, hits: 1 }],
    });
  });
});
