import { gameHistorySchema } from '../game-history.ts';
import type { TopicFamily } from './define.ts';

/**
 * gamehistory:{gameKey}: the last scoreboard changes, newest first, to the game's owner only
 * (the scorekeeper's undo and log); null when there is no such game.
 */
export const gameHistoryTopic = {
  prefix: 'gamehistory',
  name: (gameKey: string) => `gamehistory:${gameKey}`,
  schema: gameHistorySchema,
  private: true,
  coalesce: false,
} satisfies TopicFamily<[gameKey: string], typeof gameHistorySchema>;
