import { z } from 'zod';

/** How many scoreboard changes a game keeps in its history. */
export const GAME_HISTORY_LIMIT = 200;

/**
 * One scoreboard change: the game topic's seq it made, server time (ms), each field's move.
 * Changes from the event log (DESIGN §10) also say which event, who made it on which device,
 * what kind of event it was and whether it is voided; legacy entries (kept from before the
 * log) have none of these.
 */
export const gameHistoryEntrySchema = z.object({
  seq: z.number().int().nonnegative(),
  at: z.number(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  eventId: z.string().optional(),
  by: z.string().nullable().optional(),
  device: z.string().nullable().optional(),
  kind: z.string().optional(),
  voided: z.boolean().optional(),
  note: z.string().optional(),
  /**
   * A tap held because it was made in a period that had ended: waiting for a scorer, or what
   * they decided (applied to its period, applied now, discarded).
   */
  held: z.enum(['waiting', 'period', 'now', 'discard']).optional(),
  /** The period a held tap was made in. */
  period: z.string().optional(),
  /** The team a tap was for, and the player said to have scored it (by name). */
  team: z.enum(['home', 'away']).optional(),
  player: z.string().optional(),
});
export type GameHistoryEntry = z.infer<typeof gameHistoryEntrySchema>;

/** Topic gamehistory:{gameKey}: newest first; null when the game does not exist. */
export const gameHistorySchema = z.object({ entries: z.array(gameHistoryEntrySchema) }).nullable();
