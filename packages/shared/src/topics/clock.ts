import { clockTopicSchema } from '../game-clock.ts';
import { keyedTopic } from './define.ts';

/**
 * clock:{gameKey}: the game clock's state (DESIGN §9), apart from the score; viewers compute what
 * it shows. null when there is no game.
 */
export const clockTopic = keyedTopic('clock', clockTopicSchema, {
  private: false,
  coalesce: false,
});
