import { z } from 'zod';
import { clockSchema } from './scoreboard.ts';
import { clockDisplay, MAX_SET_SECONDS } from './clock-display.ts';

export { clockDisplay, clockText, formatClock, MAX_SET_SECONDS } from './clock-display.ts';

// DESIGN §9 clock model: the game stores its clock's state, not its ticks. Viewers, the
// server-rendered page and the server compute what the clock shows from that state and the
// server's time, so a running clock costs no write per second.

const MAX_SECONDS = 1_000_000;
const clockSeconds = z.number().int().min(0).max(MAX_SECONDS);

const TOO_LONG = 'The clock goes up to 99:59.';
const setSeconds = z
  .number({ error: 'Write the time as minutes:seconds, e.g. 12:00.' })
  .int('Use whole seconds.')
  .min(0, "The clock can't be below 0:00.")
  .max(MAX_SET_SECONDS, TOO_LONG);

/**
 * The scorekeeper's clock field: m:ss (or whole minutes 'mm'), up to 99:59, read as seconds.
 * Its messages say what is wrong in plain words, as the form shows them.
 */
export const clockInputSchema = z
  .string()
  .trim()
  .min(1, 'Write the time as minutes:seconds, e.g. 12:00.')
  .transform((text, ctx) => {
    const m = /^(\d{1,3})(?::(\d{1,2}))?$/.exec(text);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: 'Write the time as minutes:seconds, e.g. 12:00.' });
      return z.NEVER;
    }
    const minutes = Number(m[1]);
    const secs = m[2] === undefined ? 0 : Number(m[2]);
    if (m[2] !== undefined && m[2].length !== 2) {
      ctx.addIssue({ code: 'custom', message: 'Write the seconds with two digits, e.g. 1:05.' });
      return z.NEVER;
    }
    if (secs > 59) {
      ctx.addIssue({ code: 'custom', message: 'The seconds go up to 59.' });
      return z.NEVER;
    }
    if (minutes > 99) {
      ctx.addIssue({ code: 'custom', message: TOO_LONG });
      return z.NEVER;
    }
    return minutes * 60 + secs;
  });

export const gameClockStateSchema = z.object({
  running: z.boolean(),
  /** What the clock showed when it last started, stopped or was set. */
  seconds: clockSeconds,
  /** Server time (ms) it last started; null while stopped. */
  startedAt: z.number().int().nullable(),
  direction: z.enum(['up', 'down']),
  /** Where a clock counting up stops; null: it does not. A clock counting down stops at 0. */
  limit: clockSeconds.nullable(),
});
export type GameClockState = z.infer<typeof gameClockStateSchema>;

/** A game whose clock was never set or started. */
export const initialClockState: GameClockState = {
  running: false,
  seconds: 0,
  startedAt: null,
  direction: 'up',
  limit: null,
};

/** POST /api/games/{gameKey}/clock/control: the scorekeeper's buttons. */
export const clockControlSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('start') }),
  z.object({ action: z.literal('stop') }),
  z.object({
    action: z.literal('set'),
    seconds: setSeconds,
    direction: z.enum(['up', 'down']).optional(),
    limit: setSeconds.nullable().optional(),
  }),
]);
export type ClockControl = z.infer<typeof clockControlSchema>;

/**
 * Topic clock:{gameKey}: the state (its `seconds` as in the state), formattedTime (the text a
 * stopped clock shows: what the phone app sent with its tick, else the seconds formatted) and
 * serverTime, the server's time (ms) the state was sent at, from which a viewer learns how far
 * its own clock is off. null when the game does not exist.
 */
export const clockTopicSchema = clockSchema
  .extend({ ...gameClockStateSchema.shape, serverTime: z.number() })
  .nullable();
export type ClockTopic = z.infer<typeof clockTopicSchema>;

/** The state after a scorekeeper's control at server time nowMs. */
export function applyClockControl(
  state: GameClockState,
  control: ClockControl,
  nowMs: number,
): GameClockState {
  switch (control.action) {
    case 'start':
      return state.running ? state : { ...state, running: true, startedAt: nowMs };
    case 'stop':
      return state.running
        ? { ...state, running: false, startedAt: null, seconds: clockDisplay(state, nowMs).seconds }
        : state;
    case 'set':
      // A running clock keeps running from the new time.
      return {
        running: state.running,
        seconds: control.seconds,
        startedAt: state.running ? nowMs : null,
        direction: control.direction ?? state.direction,
        limit: control.limit === undefined ? state.limit : control.limit,
      };
  }
}
