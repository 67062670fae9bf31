import { playCountListSchema } from '../playcount.ts';
import { userListTopic } from './user.ts';

/** user:{uid}:playcounts: the user's play-count games. */
export const myPlayCountsTopic = userListTopic('playcounts', playCountListSchema, {
  coalesce: false,
});
