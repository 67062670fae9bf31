import { gameTopicSchema } from '../scoreboard-views.ts';
import type { TopicFamily } from './define.ts';

/** game:{gameKey}: the public scoreboard, comments included; null when there is no such game. */
export const gameTopic = {
  prefix: 'game',
  name: (gameKey: string) => `game:${gameKey}`,
  schema: gameTopicSchema,
  private: false,
  coalesce: false,
} satisfies TopicFamily<[gameKey: string], typeof gameTopicSchema>;
