import type { Snap } from './playcount.ts';

// SPEC §2/§9: the summary table shows each group's snaps in quarters 1 to 4.
export const QUARTERS = [1, 2, 3, 4] as const;

export interface QuarterSummaryRow {
  groupName: string;
  /** Snaps of this group in Qtr 1..4 (index 0 = Qtr 1). */
  quarters: [number, number, number, number];
  total: number;
}

/** Snaps counted per group name and quarter, groups in the order they were first used. */
export function quarterSummary(snaps: readonly Snap[]): QuarterSummaryRow[] {
  const rows = new Map<string, QuarterSummaryRow>();
  for (const snap of snaps) {
    const q = snap.quarter;
    if (!Number.isInteger(q) || q < 1 || q > 4) continue;
    let row = rows.get(snap.groupName);
    if (!row) {
      row = { groupName: snap.groupName, quarters: [0, 0, 0, 0], total: 0 };
      rows.set(snap.groupName, row);
    }
    row.quarters[q - 1]! += 1;
    row.total += 1;
  }
  return [...rows.values()];
}

/** How many more plays a player needs to reach the minimum (0 when met or no minimum). */
export function playsStillNeeded(playCount: number, minPlays: number | null | undefined): number {
  return minPlays === null || minPlays === undefined ? 0 : Math.max(0, minPlays - playCount);
}
