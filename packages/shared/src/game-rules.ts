import type { ScoreboardFields, ScoreboardPatch } from './scoreboard.ts';
import { scoringFields } from './scoreboard-boards.ts';
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

/** A scoring field before play: a count at 0, or tennis points at "0". */
const atStart = (v: unknown) => v === 0 || v === '0';

/** Whether the game has a point, game or set on the board: its rules are then fixed. */
export function playBegun(f: ScoreboardFields): boolean {
  const kind = boardKind(f.sportID);
  switch (kind) {
    case 'tennis':
    case 'volleyball':
      return scoringFields(kind).some((k) => !atStart(f[k]));
    default:
      return false;
  }
}
