import type { ScoreboardFields } from '@sagan/shared/scoreboard';

// Score changes are announced politely to screen readers, at most once per interval,
// always with the latest score (a burst of updates is one announcement, not a queue).

const ANNOUNCE_INTERVAL_MS = 5000;

type ScoreFields = Pick<
  ScoreboardFields,
  'homeTeamName' | 'awayTeamName' | 'homeScore' | 'awayScore' | 'gamePeriod'
>;

export function scoreSentence(g: ScoreFields): string {
  const period = g.gamePeriod.trim();
  return `${g.homeTeamName} ${g.homeScore}, ${g.awayTeamName} ${g.awayScore}${period ? `, ${period}` : ''}.`;
}

/**
 * Decides when to announce: `next(text, now)` returns the delay after which `text` should be
 * spoken (0 = now), or null when nothing new needs saying.
 */
export class AnnounceThrottle {
  private lastText: string;
  private lastAt = -Infinity;

  constructor(
    initial: string,
    private readonly intervalMs = ANNOUNCE_INTERVAL_MS,
  ) {
    // The score on arrival is on screen already: only changes are announced.
    this.lastText = initial;
  }

  next(text: string, now: number): number | null {
    if (text === this.lastText) return null;
    return Math.max(0, this.lastAt + this.intervalMs - now);
  }

  spoken(text: string, now: number): void {
    this.lastText = text;
    this.lastAt = now;
  }
}
