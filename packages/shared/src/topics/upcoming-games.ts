import { gameListSchema } from '../scoreboard-views.ts';
import { singleTopic } from './define.ts';

/** upcoming: games scheduled ahead and not begun yet, soonest first, for the dashboard. */
export const upcomingGamesTopic = singleTopic('upcoming', gameListSchema, {
  private: false,
  coalesce: true,
});
