import { clockTopicSchema } from '../scoreboard-views.ts';
import type { TopicFamily } from './define.ts';

/** clock:{gameKey}: the game clock, ticking apart from the score; null when there is no game. */
export const clockTopic = {
  prefix: 'clock',
  name: (gameKey: string) => `clock:${gameKey}`,
  schema: clockTopicSchema,
  private: false,
  coalesce: false,
} satisfies TopicFamily<[gameKey: string], typeof clockTopicSchema>;
