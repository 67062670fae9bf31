import { describe, expect, it } from 'vitest';
import { scoringTotals } from './scoring-season.ts';

const sheet = [
  { playerKey: 'ann', jersey: '4', playerName: 'Ann Lee' },
  { playerKey: 'bo', jersey: '7', playerName: 'Bo Diaz' },
];

describe('season totals of box scores', () => {
  it('sums points and hits per player over the games, counting the games each is in', () => {
    const totals = scoringTotals([
      {
        lines: [
          { player: 'ann', points: 1, hits: 2 },
          { player: 'bo', points: 0, hits: 1 },
        ],
        players: sheet,
        initialsOnly: false,
      },
      { lines: [{ player: 'ann', points: 2, hits: 1 }], players: sheet, initialsOnly: false },
    ]);
    expect(totals).toEqual([
      { key: 'ann', jersey: '4', name: 'Ann Lee', points: 3, hits: 3, games: 2 },
      { key: 'bo', jersey: '7', name: 'Bo Diaz', points: 0, hits: 1, games: 1 },
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
    expect(totals).toEqual([{ key: 'ann', jersey: '4', name: 'A. L.', points: 5, games: 2 }]);
  });
});
