import { gameListSchema } from '../scoreboard-views.ts';
import type { TopicFamily } from './define.ts';

/** upcoming: games scheduled ahead and not begun yet, soonest first, for the dashboard. */
export const upcomingGamesTopic = {
  prefix: 'upcoming',
  name: () => 'upcoming',
  schema: gameListSchema,
  private: false,
  coalesce: true,
} satisfies TopicFamily<[], typeof gameListSchema>;
