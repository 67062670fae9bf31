import { topics } from '@sagan/shared/realtime';
import {
  clockTopicSchema,
  favoritesTopicSchema,
  followedTagsTopicSchema,
  gameListSchema,
  gameTopicSchema,
  tagsTopicSchema,
  tagTopicSchema,
} from '@sagan/shared/scoreboard-views';
import { useTopic } from '../../../lib/realtime.ts';

// SPEC §4: scoreboard data updates live. Every read of this feature is a realtime topic.

export const useGame = (gameKey: string) => useTopic(topics.game(gameKey), gameTopicSchema);
export const useClock = (gameKey: string) => useTopic(topics.clock(gameKey), clockTopicSchema);
export const useRecentGames = () => useTopic(topics.recentGames(), gameListSchema);
export const useTagLists = () => useTopic(topics.tags(), tagsTopicSchema);
export const useTag = (tagID: string) => useTopic(topics.tag(tagID), tagTopicSchema);

/** The signed-in user's own lists; null uid (signed out) subscribes to nothing. */
export const useMyGames = (uid: string | null) =>
  useTopic(uid ? topics.user(uid, 'games') : null, gameListSchema);
export const useFavorites = (uid: string | null) =>
  useTopic(uid ? topics.user(uid, 'favorites') : null, favoritesTopicSchema);
export const useFollowedTags = (uid: string | null) =>
  useTopic(uid ? topics.user(uid, 'followedTags') : null, followedTagsTopicSchema);
