import { gameListSchema } from '../scoreboard-views.ts';
import { userListTopic } from './user.ts';

/** user:{uid}:games: the games the user keeps score of. */
export const myGamesTopic = userListTopic('games', gameListSchema, { coalesce: true });
