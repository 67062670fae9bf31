// The tennis line's shape and its spoken text, apart from the rules that compute it: the
// summary card on every list page reads these, and only the mini card needs the rules.

export type Side = 'home' | 'away';
export type Points = { home: number; away: number };

/** One set on a team's line: its games, and the tiebreak points it lost the set by, 6 (5). */
export interface TennisSetCell {
  games: number;
  /** The loser's tiebreak points, as the board prints them: 7–6 (5). */
  lostTiebreak?: number;
  /** A 10-point match tiebreak played instead of the set: its points, shown [10]. */
  matchTiebreak?: number;
}

/** A team's tennis line on the mini card and the overlay, read like the full board. */
export interface TennisLine {
  /** The sets finished or begun, the current one last. */
  sets: TennisSetCell[];
  /** The current game's points (15, 30, 40, AD), or the tiebreak's count; null when not in play. */
  points: string | null;
  /** Whether `points` is a tiebreak's count. */
  tiebreak: boolean;
}

/** What a screen reader hears of a line: "Sets 6 (5), 2; points 30" or "…; tiebreak 5". */
export function tennisLineText(line: TennisLine): string {
  const sets = line.sets.map((s) =>
    s.matchTiebreak !== undefined
      ? `[${s.matchTiebreak}]`
      : s.lostTiebreak !== undefined
        ? `${s.games} (${s.lostTiebreak})`
        : String(s.games),
  );
  const points =
    line.points === null ? '' : `; ${line.tiebreak ? 'tiebreak' : 'points'} ${line.points}`;
  return `Sets ${sets.join(', ')}${points}`;
}
