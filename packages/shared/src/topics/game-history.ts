import { gameHistorySchema } from '../game-history.ts';
import { keyedTopic } from './define.ts';

/**
 * gamehistory:{gameKey}: the last scoreboard changes, newest first, to the game's owner only
 * (the scorekeeper's undo and log); null when there is no such game.
 */
export const gameHistoryTopic = keyedTopic('gamehistory', gameHistorySchema, {
  private: true,
  coalesce: false,
});
