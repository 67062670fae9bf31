import { z } from 'zod';
import { keyedTopic } from './define.ts';

/**
 * One group of held events: taps made in `period` that arrived after it had ended (when the
 * game was at `arrivedIn`), waiting for a scorer to decide. `applyToPeriod` says whether they
 * can go into their own period without changing who was ahead when it ended.
 */
export const heldGroupSchema = z.object({
  period: z.string(),
  arrivedIn: z.string(),
  events: z.array(
    z.object({
      eventId: z.string(),
      by: z.string().nullable(),
      device: z.string().nullable(),
      at: z.number(),
    }),
  ),
  applyToPeriod: z.boolean(),
});
export type HeldGroup = z.infer<typeof heldGroupSchema>;

export const gameHeldSchema = z.object({ groups: z.array(heldGroupSchema) }).nullable();

/**
 * gameheld:{gameKey}: the game's held events, to those who may score it only (DESIGN §10);
 * null when there is no such game. The public board never shows a held event.
 */
export const gameHeldTopic = keyedTopic('gameheld', gameHeldSchema, {
  private: true,
  coalesce: false,
});
