import { clockTopicSchema } from '../game-clock.ts';
import type { TopicFamily } from './define.ts';

/**
 * clock:{gameKey}: the game clock's state (DESIGN §9), apart from the score; viewers compute what
 * it shows. null when there is no game.
 */
export const clockTopic = {
  prefix: 'clock',
  name: (gameKey: string) => `clock:${gameKey}`,
  schema: clockTopicSchema,
  private: false,
  coalesce: false,
} satisfies TopicFamily<[gameKey: string], typeof clockTopicSchema>;
