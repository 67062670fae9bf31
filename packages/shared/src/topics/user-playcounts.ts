import { playCountListSchema } from '../playcount.ts';
import type { UserListFamily } from './define.ts';
import { userTopicFamily, userTopicName } from './user.ts';

/** user:{uid}:playcounts: the user's play-count games. */
export const myPlayCountsTopic = {
  ...userTopicFamily,
  list: 'playcounts',
  name: (uid: string) => userTopicName(uid, 'playcounts'),
  coalesce: false,
  schema: playCountListSchema,
} satisfies UserListFamily<'playcounts', typeof playCountListSchema>;
