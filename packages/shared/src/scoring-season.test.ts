import { describe, expect, it } from 'vitest';
import { UTF8_BOM } from './csv.ts';
import { scoringSeasonCsv, scoringSeasonCsvFileName, scoringTotals } from './scoring-season.ts';

const sheet = [
  { playerKey: 'ann', jersey: '4', playerName: 'Ann Lee' },
  { playerKey: 'bo', jersey: '7', playerName: 'Bo Diaz' },
];

/** Two games' box scores: Ann in both, Bo in the first. */
const twoBaseballGames = [
  {
    lines: [
      { player: 'ann', points: 1, hits: 2 },
      { player: 'bo', points: 0, hits: 1 },
    ],
    players: sheet,
    initialsOnly: false,
  },
  { lines: [{ player: 'ann', points: 2, hits: 1 }], players: sheet, initialsOnly: false },
];

describe('season totals of box scores', () => {
  it('sums points and hits per player over the games, counting the games each is in', () => {
    const totals = scoringTotals(twoBaseballGames);
    expect(totals).toEqual([
      { key: 'ann', jersey: '4', name: 'Ann Lee', points: 3, hits: 3, games: 2, perGame: [1, 2] },
      { key: 'bo', jersey: '7', name: 'Bo Diaz', points: 0, hits: 1, games: 1, perGame: [0, null] },
    ]);
  });

  it('names by initials if any game asks it, and leaves out a player not on a game’s copy', () => {
    const totals = scoringTotals([
      { lines: [{ player: 'ann', points: 2 }], players: sheet, initialsOnly: true },
      {
        lines: [
          { player: 'ann', points: 3 },
          { player: 'zed', points: 9 },
        ],
        players: sheet,
        initialsOnly: false,
      },
    ]);
    expect(totals).toEqual([
      { key: 'ann', jersey: '4', name: 'A. L.', points: 5, games: 2, perGame: [2, 3] },
    ]);
  });

  it('downloads as CSV: the totals, then a column of points per game named by the game', () => {
    const games = [
      { gameKey: 'g1', gameName: 'Lions v Tigers', sportID: 7 },
      { gameKey: 'g2', gameName: '=Rematch, away', sportID: 7 },
    ];
    const players = scoringTotals(twoBaseballGames);
    const csv = scoringSeasonCsv({ teamKey: 't', teamName: 'Lions', games, players });
    expect(csv).toBe(
      UTF8_BOM +
        [
          // Runs when every game is baseball; a game named like a formula stays text.
          `Jersey,Player,Games,Runs,Hits,Lions v Tigers,"'=Rematch, away"`,
          '4,Ann Lee,2,3,3,1,2',
          '7,Bo Diaz,1,0,1,0,',
        ].join('\r\n') +
        '\r\n',
    );
    // Goals and behinds where kept; points where any game is not baseball.
    const footy = scoringSeasonCsv({
      teamKey: 't',
      teamName: 'Swans',
      games: [{ gameKey: 'g', gameName: '', sportID: 4 }],
      players: [
        {
          key: 'a',
          jersey: '9',
          name: 'Ann',
          points: 15,
          goals: 2,
          behinds: 3,
          games: 1,
          perGame: [15],
        },
      ],
    });
    expect(footy.split('\r\n').slice(0, 2)).toEqual([
      `${UTF8_BOM}Jersey,Player,Games,Points,Goals,Behinds,Game without a name`,
      '9,Ann,1,15,2,3,15',
    ]);
    expect(scoringSeasonCsvFileName('Lions 3/1')).toBe('Lions 3-1-Season-Points.csv');
  });
});
