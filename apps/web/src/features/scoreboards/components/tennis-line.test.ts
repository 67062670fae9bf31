import { describe, expect, it } from 'vitest';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { tennisLine, tennisLineText } from './tennis-line.ts';

// The mini card and the overlay read a tennis match like the board: the sets played, a set won
// in a tiebreak as 7–6 (5), and the game's points or, in a tiebreak, its count.

const tennis = (f: Partial<ScoreboardFields>): ScoreboardFields => ({
  ...defaultScoreboard,
  sportID: 8,
  maxSets: 3,
  ...f,
});
const both = (game: ScoreboardFields, tb: Map<string, { home: number; away: number }>) =>
  (['home', 'away'] as const).map((side) => tennisLineText(tennisLine(game, tb, side)));

describe('tennis line on the mini card', () => {
  it('counts a tiebreak at 6–6 as the board does', () => {
    const game = tennis({
      gamePeriod: 'Set 1',
      homeSet1: 6,
      awaySet1: 6,
      homeScoreGames: 6,
      awayScoreGames: 6,
      homeScorePointsTennis: '5',
      awayScorePointsTennis: '4',
    });
    expect(both(game, new Map())).toEqual(['Sets 6; tiebreak 5', 'Sets 6; tiebreak 4']);
  });

  it('prints a set won in a tiebreak 7–6 (5), the loser’s points only', () => {
    const game = tennis({
      gamePeriod: 'Set 2',
      homeSet1: 7,
      awaySet1: 6,
      homeSet2: 1,
      homeScoreGames: 1,
      homeScorePointsTennis: '30',
      awayScorePointsTennis: '15',
    });
    const tb = new Map([['Set 1', { home: 7, away: 5 }]]);
    expect(both(game, tb)).toEqual(['Sets 7, 1; points 30', 'Sets 6 (5), 0; points 15']);
  });

  it('shows a match tiebreak in brackets, and no points once the match is over', () => {
    const game = tennis({
      gamePeriod: 'Final',
      tennisDecider: 'matchTiebreak',
      homeSet1: 6,
      awaySet1: 4,
      homeSet2: 3,
      awaySet2: 6,
      homeSet3: 1,
      awaySet3: 0,
    });
    const tb = new Map([['Set 3', { home: 10, away: 8 }]]);
    expect(both(game, tb)).toEqual(['Sets 6, 3, [10]', 'Sets 4, 6, [8]']);
  });
});
