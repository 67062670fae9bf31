import { gameListSchema } from '../scoreboard-views.ts';
import type { TopicFamily } from './define.ts';

/** games:recent: the 10 most recent games, for the dashboard. */
export const recentGamesTopic = {
  prefix: 'games',
  name: () => 'games:recent',
  schema: gameListSchema,
  private: false,
  coalesce: true,
} satisfies TopicFamily<[], typeof gameListSchema>;
