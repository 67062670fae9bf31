import { favoritesTopicSchema } from '../scoreboard-views.ts';
import type { UserListFamily } from './define.ts';
import { userTopicFamily, userTopicName } from './user.ts';

/** user:{uid}:favorites: the scoreboards the user bookmarked. */
export const favoritesTopic = {
  ...userTopicFamily,
  list: 'favorites',
  name: (uid: string) => userTopicName(uid, 'favorites'),
  coalesce: true,
  schema: favoritesTopicSchema,
} satisfies UserListFamily<'favorites', typeof favoritesTopicSchema>;
