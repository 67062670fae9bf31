import { moderationNoticesSchema } from '../moderation.ts';
import { userListTopic } from './user.ts';

/**
 * user:{uid}:notices: what the operators did to the user's games (hidden, restored) that the
 * user has not dismissed yet, newest first.
 */
export const myNoticesTopic = userListTopic('notices', moderationNoticesSchema, {
  coalesce: false,
});
