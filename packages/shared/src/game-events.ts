import { z } from 'zod';
import { errorSchema } from './http.ts';
import { keySchema } from './keys.ts';
import { safeText } from './text.ts';
import { COUNT_FIELDS, FLAG_FIELDS } from './scorekeeping.ts';

// DESIGN §10: what the web scorekeeper sends to a game's log. Intents are relative ("home
// +2"), so they are never refused as stale; absolute edits keep going through PATCH with its
// baseSeq.

const team = z.enum(['home', 'away']);
const by = z
  .number()
  .int()
  .min(-100)
  .max(100)
  .refine((n) => n !== 0, 'by is a non-zero step');
const eventId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'an event id is 1–100 letters, digits, _ or -');

/** A player of the game's team sheet for that team (the server checks the sheet). */
const player = keySchema;

export const intentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('score'), team, by, player: player.optional() }).strict(),
  z.object({ kind: z.literal('goal'), team, by, player: player.optional() }).strict(),
  z.object({ kind: z.literal('behind'), team, by, player: player.optional() }).strict(),
  /** Who scored this device's last scoring tap for `team` (or, with tap 'hit', its last hit). */
  z.object({ kind: z.literal('scorer'), team, player, tap: z.literal('hit').optional() }).strict(),
  z.object({ kind: z.literal('count'), field: z.enum(COUNT_FIELDS), by }).strict(),
  z.object({ kind: z.literal('toggle'), field: z.enum(FLAG_FIELDS) }).strict(),
  z.object({ kind: z.literal('tennisPoint'), team }).strict(),
  z.object({ kind: z.literal('setWon'), team }).strict(),
  z.object({ kind: z.literal('pitch'), call: z.enum(['ball', 'strike', 'out']) }).strict(),
  /** The batter, of the batting team's sheet, if said. */
  z.object({ kind: z.literal('hit'), player: player.optional() }).strict(),
  z.object({ kind: z.literal('error') }).strict(),
  z.object({ kind: z.literal('period'), step: z.union([z.literal(1), z.literal(-1)]) }).strict(),
]);

/** How a scorer decides held events: applied to the period they were made in, now, or not. */
export const heldApplySchema = z.enum(['period', 'now', 'discard']);

/**
 * An intent, Undo (this device's last event), a void of one event (the owner's), or a scorer's
 * decision on events held because they were made in a period that had ended.
 */
export const gameActionSchema = z.discriminatedUnion('kind', [
  ...intentSchema.options,
  z.object({ kind: z.literal('undo') }).strict(),
  z.object({ kind: z.literal('void'), target: eventId }).strict(),
  z
    .object({
      kind: z.literal('resolve'),
      events: z
        .array(eventId)
        .min(1)
        .max(500)
        .refine((ids) => new Set(ids).size === ids.length, 'each held event is named once'),
      apply: heldApplySchema,
    })
    .strict(),
]);

export const deviceIdSchema = eventId;

export const gameEventInputSchema = z
  .object({
    action: gameActionSchema,
    /** The phone or browser making it: Undo takes back this device's own last event. */
    device: deviceIdSchema,
    /** The game topic's seq the client saw when it made the event. */
    baseSeq: z.number().int().nonnegative().optional(),
    /** The period shown when it was made. */
    period: safeText().max(200).optional(),
  })
  .strict();
export type GameEventInput = z.infer<typeof gameEventInputSchema>;

export const gameEventAnswerSchema = z.object({
  eventId: z.string(),
  seq: z.number().int().nonnegative(),
  timeStamp: z.number(),
  /** False when the event changed nothing on the scoreboard; `note` says why. */
  changed: z.boolean(),
  note: z.string().optional(),
  /** The server time of the later edit that overwrote what a void would have taken back. */
  overwrittenAt: z.number().optional(),
  /** Made in a period that had ended: stored, not applied, until a scorer decides. */
  held: z.boolean().optional(),
  /** For a held event: the period the game was at when it arrived. */
  arrivedIn: z.string().optional(),
});
export type GameEventAnswer = z.infer<typeof gameEventAnswerSchema>;

/**
 * A refused event (409). On a decision about held events that another decision took first, it
 * says what was decided, by whom and when.
 */
export const eventRefusalSchema = errorSchema.extend({
  decided: z
    .object({
      apply: heldApplySchema,
      period: z.string(),
      by: z.string().nullable(),
      at: z.number(),
    })
    .optional(),
});
