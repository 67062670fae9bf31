// What a clock shows, computed from its state (game-clock.ts): zod-free, so a board's first
// load computes its clock without loading the clock's schemas.
import type { ClockTopic, GameClockState } from './game-clock.ts';

/** The most a scorekeeper can set the clock to: 99:59, the widest m:ss a board shows. */
export const MAX_SET_SECONDS = 99 * 60 + 59;

/**
 * m:ss up to 99:59, as game clocks print a long half (60:00, not 1:00:00); h:mm:ss only for a
 * clock counting up past that.
 */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const ss = String(s % 60).padStart(2, '0');
  if (s <= MAX_SET_SECONDS) return `${Math.floor(s / 60)}:${ss}`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${ss}`;
}

/**
 * What the clock shows at server time nowMs. Counting down it shows the seconds left, rounded
 * up (0:00 only once the time is fully gone) and stops at 0; counting up it shows the whole
 * seconds gone and stops at its limit.
 */
export function clockDisplay(
  state: GameClockState,
  nowMs: number,
): { seconds: number; formattedTime: string } {
  let seconds = state.seconds;
  if (state.running && state.startedAt !== null) {
    const elapsedMs = Math.max(0, nowMs - state.startedAt);
    if (state.direction === 'down') {
      seconds = Math.max(0, Math.ceil((state.seconds * 1000 - elapsedMs) / 1000));
    } else {
      seconds = state.seconds + Math.floor(elapsedMs / 1000);
      if (state.limit !== null) seconds = Math.min(seconds, Math.max(state.limit, state.seconds));
    }
  }
  return { seconds, formattedTime: formatClock(seconds) };
}

/** The clock's text on a board: computed while it runs, else what was last set or sent. */
export function clockText(clock: NonNullable<ClockTopic>, nowMs: number): string {
  return clock.running ? clockDisplay(clock, nowMs).formattedTime : clock.formattedTime;
}
