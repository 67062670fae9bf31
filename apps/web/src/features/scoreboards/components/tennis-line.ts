import { FINAL, STARTING_SOON } from '@sagan/shared/scoreboard-basics';
import { tennisSets } from '@sagan/shared/scoreboard-boards';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { inTiebreak, tiebreakRule } from '@sagan/shared/scorekeeping';

import type { Points, Side, TennisLine, TennisSetCell } from './tennis-line-text.ts';

export { tennisLineText, type TennisLine } from './tennis-line-text.ts';

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
