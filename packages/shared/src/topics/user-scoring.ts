import { scoringListSchema } from '../coscorers.ts';
import type { UserListFamily } from './define.ts';
import { userTopicFamily, userTopicName } from './user.ts';

/**
 * user:{uid}:scoring: the games and play counts the user co-scores. A scorer's open screen
 * watches it, so a revocation closes that screen with a plain message.
 */
export const myScoringTopic = {
  ...userTopicFamily,
  list: 'scoring',
  name: (uid: string) => userTopicName(uid, 'scoring'),
  coalesce: false,
  schema: scoringListSchema,
} satisfies UserListFamily<'scoring', typeof scoringListSchema>;
