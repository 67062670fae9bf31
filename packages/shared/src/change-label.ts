// The Changes list in words: what a scorer tapped, as they would say it ("Lions +2 (Ann Lee)",
// "Set 3 began"), read from what the event changed. Zod-free, for the scorekeeper screen.

interface Change {
  from: unknown;
  to: unknown;
}

/** What the Changes list knows of one entry. */
export interface ChangeEntry {
  kind?: string;
  changes: Record<string, Change>;
  team?: 'home' | 'away';
  player?: string;
}

const delta = (c: Change | undefined) =>
  c && typeof c.from === 'number' && typeof c.to === 'number' ? c.to - c.from : 0;
const signed = (n: number) => (n > 0 ? `+${n}` : `−${-n}`);

/**
 * The entry in words, or null when it is not a tap said simply (an edit of several fields,
 * an undo, a decision): the list then shows each field's move.
 */
export function changeLabel(
  e: ChangeEntry,
  names: { homeTeamName: string; awayTeamName: string },
): string | null {
  const teamName = (team: 'home' | 'away') =>
    team === 'home' ? names.homeTeamName : names.awayTeamName;
  if (e.kind === 'scorer' && e.team) {
    return `${e.player ?? 'A player'} scored that ${teamName(e.team)} score`;
  }
  const by = e.player ? ` (${e.player})` : '';
  if (e.kind === 'setWon' && e.team) return `${teamName(e.team)} won the set`;
  if (['score', 'goal', 'behind'].includes(e.kind ?? '')) {
    for (const team of ['home', 'away'] as const) {
      const points = delta(e.changes[`${team}Score`]);
      if (!points) continue;
      const goals = delta(e.changes[`${team}ScoreGoals`]);
      const behinds = delta(e.changes[`${team}ScorePoints`]);
      const what = goals ? ` (goal ${signed(goals)})` : behinds ? ` (${signed(behinds)})` : '';
      // What the score became too: a run of equal taps still reads as a sequence, each once.
      const { from, to } = e.changes[`${team}Score`]!;
      const move = ` · ${String(from)} → ${String(to)}`;
      return `${teamName(team)} ${signed(points)}${e.kind === 'score' ? '' : what}${by}${move}`;
    }
  }
  const period = e.changes.gamePeriod;
  if (e.kind === 'period' && period && typeof period.to === 'string') {
    return /^(final|starting soon|half time)$/i.test(period.to) ? period.to : `${period.to} began`;
  }
  return null;
}
