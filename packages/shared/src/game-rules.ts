import type { ScoreboardFields, ScoreboardPatch } from './scoreboard.ts';
import { boardKind } from './sports.ts';

// A game's rules (tennis: no-ad, the deciding set; volleyball: set points, match length) are chosen when it is
// made and may be changed by its owner until play begins: a rule changed mid-match would read
// the sets already played by a rule they were not played under. Zod-free, for the server's
// check and the scorekeeper's form alike.

export const RULE_FIELDS = [
  'tennisNoAd',
  'tennisDecider',
  'setPoints',
  'decidingSetPoints',
  'volleyballBestOf',
] as const;
type RuleField = (typeof RULE_FIELDS)[number];

/** The rule fields a patch changes (a value equal to the game's is no change). */
export function changedRules(f: ScoreboardFields, patch: ScoreboardPatch): RuleField[] {
  return RULE_FIELDS.filter((k) => k in patch && patch[k] !== f[k]);
}

const TENNIS_PLAY: (keyof ScoreboardFields)[] = [
  'homeScoreGames',
  'awayScoreGames',
  ...[1, 2, 3, 4, 5].flatMap((n) => [`homeSet${n}`, `awaySet${n}`] as (keyof ScoreboardFields)[]),
];

/** Whether the game has a point, game or set on the board: its rules are then fixed. */
export function playBegun(f: ScoreboardFields): boolean {
  switch (boardKind(f.sportID)) {
    case 'tennis':
      return (
        TENNIS_PLAY.some((k) => f[k] !== 0) ||
        f.homeScorePointsTennis !== '0' ||
        f.awayScorePointsTennis !== '0'
      );
    case 'volleyball':
      return f.homeScore + f.awayScore + f.homeScoreGames + f.awayScoreGames > 0;
    default:
      return false;
  }
}
