// A game created ahead of time: "Starting Soon" with its start, listed under Upcoming and kept
// out of Current Games until its first scoring event (which the server reads from the log).
// Zod-free, so a board and a card (a viewer's first load) can show a start without zod; the
// schema that checks a new game's start is newGameSchema in scoreboard.ts.

/** A start a few minutes gone is still taken: the form may have been filled in a while ago. */
export const START_GRACE_MS = 10 * 60_000;
/** How far ahead a game may be scheduled. */
export const SCHEDULE_AHEAD_DAYS = 400;

/** Why a start cannot be taken now, in words; null when it can. */
export function startProblem(startsAt: number, now = Date.now()): string | null {
  if (startsAt < now - START_GRACE_MS) return 'The start has already passed: pick a later time';
  if (startsAt > now + SCHEDULE_AHEAD_DAYS * 86_400_000) {
    return `The start must be within ${SCHEDULE_AHEAD_DAYS} days`;
  }
  return null;
}

/** A `datetime-local` value ('2026-05-02T18:30') read in the viewer's zone; null if not one. */
export function startFromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** A start as the viewer's locale and time zone write it: 'Sat, May 2, 6:30 PM'. */
export function formatStart(startsAt: number, locale?: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  }).format(startsAt);
}

/** Whether a card or board shows its start: a start is set and play has not begun. */
export const showsStart = <G extends { startsAt?: number | undefined; gamePeriod: string }>(
  g: G,
): g is G & { startsAt: number } =>
  g.startsAt !== undefined && g.gamePeriod.trim().toLowerCase() === 'starting soon';
