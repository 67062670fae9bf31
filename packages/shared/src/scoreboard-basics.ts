// Scoreboard constants and words a board shows, zod-free: a viewer's first load reads them
// without loading the scoreboard's schemas (scoreboard.ts re-exports them).

/** The periods with a meaning of their own: a game not started yet, and a game over. */
export const STARTING_SOON = 'Starting Soon';
export const FINAL = 'Final';

export const TENNIS_POINTS = ['0', '15', '30', '40', 'AD'] as const;

/**
 * How a tennis match's deciding set is played: a tiebreak at 6–6 like the others, a tiebreak at
 * 12–12, a 10-point match tiebreak instead of the set, or an advantage set (no tiebreak).
 */
export const TENNIS_DECIDERS = ['tiebreak', 'tiebreak12', 'matchTiebreak', 'advantage'] as const;
export type TennisDecider = (typeof TENNIS_DECIDERS)[number];

/** The longest message to a scorekeeper (the web shows a counter against it). */
export const SCOREKEEPER_MESSAGE_MAX = 1000;

/** SPEC §2 summary card: 'Final' and 'Starting Soon' get special styling. */
export function periodStyle(gamePeriod: string): 'final' | 'starting-soon' | 'live' {
  const p = gamePeriod.trim().toLowerCase();
  if (p === 'final') return 'final';
  if (p === 'starting soon') return 'starting-soon';
  return 'live';
}
