import { z } from 'zod';

/** How many scoreboard changes a game keeps in its history. */
export const GAME_HISTORY_LIMIT = 200;

/** One scoreboard change: the game topic's seq it made, server time (ms), each field's move. */
export const gameHistoryEntrySchema = z.object({
  seq: z.number().int().nonnegative(),
  at: z.number(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type GameHistoryEntry = z.infer<typeof gameHistoryEntrySchema>;

/** Topic gamehistory:{gameKey}: newest first; null when the game does not exist. */
export const gameHistorySchema = z.object({ entries: z.array(gameHistoryEntrySchema) }).nullable();
