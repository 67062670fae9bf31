import { gameListSchema } from '../scoreboard-views.ts';
import type { UserListFamily } from './define.ts';
import { userTopicFamily, userTopicName } from './user.ts';

/** user:{uid}:games: the games the user keeps score of. */
export const myGamesTopic = {
  ...userTopicFamily,
  list: 'games',
  name: (uid: string) => userTopicName(uid, 'games'),
  coalesce: true,
  schema: gameListSchema,
} satisfies UserListFamily<'games', typeof gameListSchema>;
