import { moderationNoticesSchema } from '../moderation.ts';
import type { UserListFamily } from './define.ts';
import { userTopicFamily, userTopicName } from './user.ts';

/**
 * user:{uid}:notices: what the operators did to the user's games (hidden, restored) that the
 * user has not dismissed yet, newest first.
 */
export const myNoticesTopic = {
  ...userTopicFamily,
  list: 'notices',
  name: (uid: string) => userTopicName(uid, 'notices'),
  coalesce: false,
  schema: moderationNoticesSchema,
} satisfies UserListFamily<'notices', typeof moderationNoticesSchema>;
