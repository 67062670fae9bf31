import { describe, expect, it } from 'vitest';
import { defaultScoreboard } from './scoreboard.ts';
import { countedEvents, foldGame, type LoggedEvent } from './game-log.ts';

const plus = (id: string, by: number): LoggedEvent => ({
  id,
  body: { kind: 'score', team: 'home', by },
});
const voids = (id: string, target: string): LoggedEvent => ({
  id,
  body: { kind: 'void', target },
});

describe('the fold of a game log', () => {
  it('applies the counted events in order; voids take back their target', () => {
    const log = [plus('a', 2), plus('b', 3), voids('v', 'a')];
    expect(countedEvents(log).map((e) => e.id)).toEqual(['b']);
    expect(foldGame(defaultScoreboard, log).homeScore).toBe(3);
  });

  it('a void of a void counts its target again; chains settle from the newest', () => {
    const log = [plus('a', 2), voids('v1', 'a'), voids('v2', 'v1'), voids('v3', 'v2')];
    expect(foldGame(defaultScoreboard, log).homeScore).toBe(0);
    expect(foldGame(defaultScoreboard, log.slice(0, 3)).homeScore).toBe(2);
  });

  it('a set overwrites what came before it; voiding the earlier tap then changes nothing', () => {
    const log: LoggedEvent[] = [
      plus('a', 2),
      { id: 's', body: { kind: 'set', values: { homeScore: 9 } } },
    ];
    expect(foldGame(defaultScoreboard, [...log, voids('v', 'a')]).homeScore).toBe(9);
  });

  it('rules that read the state fold again: a voided tennis point undoes the game it won', () => {
    const start = { ...defaultScoreboard, sportID: 8, maxSets: 3, gamePeriod: 'Set 1' };
    const point = (id: string): LoggedEvent => ({
      id,
      body: { kind: 'tennisPoint', team: 'away' },
    });
    const log = ['p1', 'p2', 'p3', 'p4'].map(point);
    expect(foldGame(start, log)).toMatchObject({ awayScoreGames: 1, awaySet1: 1 });
    expect(foldGame(start, [...log, voids('v', 'p1')])).toMatchObject({
      awayScoreGames: 0,
      awayScorePointsTennis: '40',
    });
  });
});
