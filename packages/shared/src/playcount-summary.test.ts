import { describe, expect, it } from 'vitest';
import { quarterSummary } from './playcount-summary.ts';
import type { Snap } from './playcount.ts';

const snap = (snapCount: number, groupName: string, quarter: number, ...players: string[]): Snap =>
  ({ snapCount, groupName, quarter, ...Object.fromEntries(players.map((p) => [p, true])) }) as Snap;

describe('quarterSummary (SPEC §2 summary table, GroupName × Qtr 1–4)', () => {
  it('counts each group’s snaps per quarter, groups in first-use order', () => {
    const rows = quarterSummary([
      snap(1, 'Offense', 1, 'a'),
      snap(2, 'Defense', 1, 'b'),
      snap(3, 'Offense', 1),
      snap(4, 'Offense', 3),
      snap(5, 'Defense', 4),
      snap(6, 'Special', 2),
      snap(7, 'Offense', 4),
    ]);
    expect(rows).toEqual([
      { groupName: 'Offense', quarters: [2, 0, 1, 1], total: 4 },
      { groupName: 'Defense', quarters: [1, 0, 0, 1], total: 2 },
      { groupName: 'Special', quarters: [0, 1, 0, 0], total: 1 },
    ]);
  });

  it('is empty without snaps', () => {
    expect(quarterSummary([])).toEqual([]);
  });

  it('keeps group names that differ only in case apart (they are the app’s names)', () => {
    const rows = quarterSummary([snap(1, 'Kick', 1), snap(2, 'kick', 1)]);
    expect(rows.map((r) => r.groupName)).toEqual(['Kick', 'kick']);
  });
});
