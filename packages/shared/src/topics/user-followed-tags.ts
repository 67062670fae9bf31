import { followedTagsTopicSchema } from '../scoreboard-views.ts';
import type { UserListFamily } from './define.ts';
import { userTopicFamily, userTopicName } from './user.ts';

/** user:{uid}:followedTags: the tags the user follows, with their games. */
export const followedTagsTopic = {
  ...userTopicFamily,
  list: 'followedTags',
  name: (uid: string) => userTopicName(uid, 'followedTags'),
  coalesce: true,
  schema: followedTagsTopicSchema,
} satisfies UserListFamily<'followedTags', typeof followedTagsTopicSchema>;
