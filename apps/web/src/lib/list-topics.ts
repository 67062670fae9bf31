// The topic families the lists of games subscribe to (the dashboard, Scoreboards, a tag's list),
// read with shapes (shape.ts) instead of their zod schemas, so those pages load no zod before
// their first paint. Each is the shared family of the same name (packages/shared/src/topics/)
// with its schema swapped for the shape derived from it; viewer-topics.test.ts holds each to its
// shared family.
import type { recentGamesTopic as RecentGamesFamily } from '@sagan/shared/topics/recent-games';
import type { tagTopic as TagFamily } from '@sagan/shared/topics/tag';
import type { tagsTopic as TagsFamily } from '@sagan/shared/topics/tags';
import type { upcomingGamesTopic as UpcomingGamesFamily } from '@sagan/shared/topics/upcoming-games';
import type { followedTagsTopic as FollowedTagsFamily } from '@sagan/shared/topics/user-followed-tags';
import type { myScoringTopic as MyScoringFamily } from '@sagan/shared/topics/user-scoring';
import { keyedViewed, singleViewed, userListViewed, type Viewed } from './shape.ts';
import * as shapes from './list-shapes.ts';

export const recentGamesTopic: Viewed<typeof RecentGamesFamily> = singleViewed(
  'games:recent',
  shapes.gameListTopic,
  { private: false, coalesce: true },
);

export const upcomingGamesTopic: Viewed<typeof UpcomingGamesFamily> = singleViewed(
  'upcoming',
  shapes.gameListTopic,
  { private: false, coalesce: true },
);

export const tagsTopic: Viewed<typeof TagsFamily> = singleViewed('tags', shapes.tagsTopic, {
  private: false,
  coalesce: true,
});

export const tagTopic: Viewed<typeof TagFamily> = keyedViewed('tag', shapes.tagTopic, {
  private: false,
  coalesce: true,
});

export const followedTagsTopic: Viewed<typeof FollowedTagsFamily> = userListViewed(
  'followedTags',
  shapes.followedTagsTopic,
  { coalesce: true },
);

export const myScoringTopic: Viewed<typeof MyScoringFamily> = userListViewed(
  'scoring',
  shapes.myScoringTopic,
  { coalesce: false },
);
