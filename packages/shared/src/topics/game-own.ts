import { z } from 'zod';
import { gameTopicSchema } from '../scoreboard-views.ts';
import { keyedTopic } from './define.ts';

export const gameOwnSchema = z
  .object({
    ...gameTopicSchema.unwrap().shape,
    /** Hidden by an operator: missing to everyone but those who may read this topic. */
    hidden: z.boolean(),
  })
  .nullable();
export type GameOwn = z.infer<typeof gameOwnSchema>;

/**
 * gameown:{gameKey}: the game as its scorers (owner and co-scorers) and the operators see it,
 * shown even when an operator hid it, and saying so (DESIGN §10). It follows game:{gameKey}:
 * the same sequence numbers, refreshed by the same changes. Null when there is no such game.
 */
export const gameOwnTopic = keyedTopic('gameown', gameOwnSchema, {
  private: true,
  coalesce: false,
});
