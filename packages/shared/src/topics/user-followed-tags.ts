import { followedTagsTopicSchema } from '../scoreboard-views.ts';
import { userListTopic } from './user.ts';

/** user:{uid}:followedTags: the tags the user follows, with their games. */
export const followedTagsTopic = userListTopic('followedTags', followedTagsTopicSchema, {
  coalesce: true,
});
