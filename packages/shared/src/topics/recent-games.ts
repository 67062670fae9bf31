import { gameListSchema } from '../scoreboard-views.ts';
import { singleTopic } from './define.ts';

/** games:recent: the 10 most recent games, for the dashboard. */
export const recentGamesTopic = singleTopic('games:recent', gameListSchema, {
  private: false,
  coalesce: true,
});
