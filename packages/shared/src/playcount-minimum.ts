// Beyond SPEC: a coach's minimum plays per player, as many youth leagues require.

/** null = no minimum set, so nobody is marked. */
export function metMinimum(playCount: number, minPlays: number | null | undefined): boolean | null {
  if (minPlays === null || minPlays === undefined) return null;
  return playCount >= minPlays;
}

/** The players below the minimum (none when no minimum is set). */
export function belowMinimum<T extends { playCount: number }>(
  roster: readonly T[],
  minPlays: number | null | undefined,
): T[] {
  return roster.filter((p) => metMinimum(p.playCount, minPlays) === false);
}
