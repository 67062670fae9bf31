import { gameTopicSchema } from '../scoreboard-views.ts';
import { keyedTopic } from './define.ts';

/** game:{gameKey}: the public scoreboard, comments included; null when there is no such game. */
export const gameTopic = keyedTopic('game', gameTopicSchema, { private: false, coalesce: false });
