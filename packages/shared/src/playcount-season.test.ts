import { describe, expect, it } from 'vitest';
import {
  seasonCsv,
  seasonCsvFileName,
  seasonTotals,
  type SeasonGameInput,
} from './playcount-season.ts';

const entry = (key: string, jersey: string, playerName: string, playCount: number) => ({
  key,
  jersey,
  playerName,
  playCount,
});

const games: SeasonGameInput[] = [
  {
    gameKey: 'g1',
    gameName: 'Week 1',
    gameDate: '2026-09-05',
    minPlays: 8,
    roster: [entry('a', '10', 'Ann', 12), entry('b', '2', 'Bo', 5), entry('c', '7', 'Cy', 8)],
  },
  {
    gameKey: 'g2',
    gameName: 'Week 2',
    gameDate: '2026-09-12',
    minPlays: null,
    roster: [entry('a', '10', 'Ann', 3), entry('b', '2', 'Bo', 1)],
  },
  {
    gameKey: 'g3',
    gameName: 'Week 3',
    gameDate: '2026-09-19',
    minPlays: 6,
    roster: [entry('a', '10', 'Ann Lee', 6), entry('b', '2', 'Bo', 5), entry('d', 'QB', 'Di', 0)],
  },
];

describe('season totals', () => {
  it('sums plays per player and counts the games each fell short of that game’s minimum', () => {
    const season = seasonTotals(games);
    expect(season.map((p) => p.key)).toEqual(['b', 'c', 'a', 'd']); // 2, 7, 10, then QB
    const byKey = Object.fromEntries(season.map((p) => [p.key, p]));
    // Ann: 12 ≥ 8, no minimum, 6 ≥ 6 → never short; named as in the latest game.
    expect(byKey.a).toMatchObject({ plays: 21, games: 3, gamesShort: 0, playerName: 'Ann Lee' });
    expect(byKey.a!.perGame).toEqual([12, 3, 6]);
    // Bo: 5 < 8 short, game 2 has no minimum, 5 < 6 short.
    expect(byKey.b).toMatchObject({ plays: 11, games: 3, gamesShort: 2 });
    // Cy played game 1 only, at exactly the minimum; Di was in game 3 only with 0 plays.
    expect(byKey.c).toMatchObject({ plays: 8, games: 1, gamesShort: 0, perGame: [8, null, null] });
    expect(byKey.d).toMatchObject({ plays: 0, games: 1, gamesShort: 1, perGame: [null, null, 0] });
  });

  it('is empty for a team without play counts', () => {
    expect(seasonTotals([])).toEqual([]);
  });

  it('exports the totals and one column per game, blank where a player was not in it', () => {
    const csv = seasonCsv({
      teamKey: 't',
      teamName: 'Eagles',
      games: games.map(({ roster: _r, ...g }) => g),
      players: seasonTotals(games),
    });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '\ufeffJersey,Player,Games,TotalPlays,GamesBelowMinimum,2026-09-05 Week 1,2026-09-12 Week 2,2026-09-19 Week 3',
    );
    expect(lines[1]).toBe('2,Bo,3,11,2,5,1,5');
    expect(lines[2]).toBe('7,Cy,1,8,0,8,,');
    expect(lines).toHaveLength(5);
    expect(seasonCsvFileName('Eagles U10/A')).toBe('Eagles U10-A-Season-PlayCounts.csv');
  });
});
