import { describe, expect, it } from 'vitest';
import { changeLabel } from './change-label.ts';

const names = { homeTeamName: 'Lions', awayTeamName: 'Tigers' };

describe('the Changes list in words', () => {
  it('a score says the team and the points, and who scored when said', () => {
    const plus2 = { homeScore: { from: 3, to: 5 } };
    expect(changeLabel({ kind: 'score', changes: plus2 }, names)).toBe('Lions +2 · 3 → 5');
    expect(changeLabel({ kind: 'score', changes: plus2, player: 'Ann Lee' }, names)).toBe(
      'Lions +2 (Ann Lee) · 3 → 5',
    );
    const minus1 = { awayScore: { from: 1, to: 0 } };
    expect(changeLabel({ kind: 'score', changes: minus1 }, names)).toBe('Tigers −1 · 1 → 0');
  });

  it('a goal and a behind say which', () => {
    const goal = {
      homeScore: { from: 0, to: 6 },
      homeScoreGoals: { from: 0, to: 1 },
    };
    expect(changeLabel({ kind: 'goal', changes: goal }, names)).toBe('Lions +6 (goal +1) · 0 → 6');
    const behind = { awayScore: { from: 6, to: 7 }, awayScorePoints: { from: 0, to: 1 } };
    expect(changeLabel({ kind: 'behind', changes: behind, player: 'Eve Ng' }, names)).toBe(
      'Tigers +1 (+1) (Eve Ng) · 6 → 7',
    );
  });

  it('periods begin; Final and the breaks are said as they are', () => {
    const set3 = { gamePeriod: { from: 'Set 2', to: 'Set 3' } };
    expect(changeLabel({ kind: 'period', changes: set3 }, names)).toBe('Set 3 began');
    const final = { gamePeriod: { from: 'Q4', to: 'Final' } };
    expect(changeLabel({ kind: 'period', changes: final }, names)).toBe('Final');
  });

  it('naming a scorer and winning a set are said; an edit of fields is left to the list', () => {
    expect(changeLabel({ kind: 'scorer', changes: {}, team: 'home', player: 'Bo' }, names)).toBe(
      'Bo scored that Lions score',
    );
    expect(
      changeLabel(
        { kind: 'setWon', changes: { homeScoreGames: { from: 0, to: 1 } }, team: 'home' },
        names,
      ),
    ).toBe('Lions won the set');
    expect(changeLabel({ kind: 'set', changes: { homeScore: { from: 5, to: 40 } } }, names)).toBe(
      null,
    );
  });
});
