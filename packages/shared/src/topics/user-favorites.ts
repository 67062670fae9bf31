import { favoritesTopicSchema } from '../scoreboard-views.ts';
import { userListTopic } from './user.ts';

/** user:{uid}:favorites: the scoreboards the user bookmarked. */
export const favoritesTopic = userListTopic('favorites', favoritesTopicSchema, { coalesce: true });
