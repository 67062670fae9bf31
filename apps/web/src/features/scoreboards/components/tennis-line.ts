import { FINAL, STARTING_SOON } from '@sagan/shared/scoreboard-basics';
import { tennisSets } from '@sagan/shared/scoreboard-boards';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { inTiebreak, tiebreakRule } from '@sagan/shared/scorekeeping';

type Side = 'home' | 'away';
type Points = { home: number; away: number };

/** One set on a team's line: its games, and the tiebreak points it lost the set by, 6 (5). */
interface TennisSetCell {
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

/**
 * The line of one side: the sets played (only those), each decided by a tiebreak with the
 * loser's tiebreak points as on the board, then the points of the game being played, which in
 * a tiebreak count 1, 2, 3…. `tiebreaks` are the line score's, by period label ("Set 1").
 */
export function tennisLine(
  game: ScoreboardFields,
  tiebreaks: ReadonlyMap<string, Points>,
  side: Side,
): TennisLine {
  const theirs: Side = side === 'home' ? 'away' : 'home';
  const sets = tennisSets(game).map((s): TennisSetCell => {
    const tb = tiebreaks.get(`Set ${s.set}`);
    if (!tb) return { games: s[side] };
    if (tiebreakRule(game, s.set)?.atGames === 0)
      return { games: s[side], matchTiebreak: tb[side] };
    return tb[side] < tb[theirs] ? { games: s[side], lostTiebreak: tb[side] } : { games: s[side] };
  });
  const period = game.gamePeriod.trim();
  const playing = period !== FINAL && period !== STARTING_SOON && sets.length > 0;
  const points = side === 'home' ? game.homeScorePointsTennis : game.awayScorePointsTennis;
  return { sets, points: playing ? String(points) : null, tiebreak: playing && inTiebreak(game) };
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
