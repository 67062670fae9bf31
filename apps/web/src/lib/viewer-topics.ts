// The topic families a viewer's first load subscribes to, read with shapes (shape.ts) instead of
// their zod schemas, so the scoreboard and the mini card load no zod (the shell's own:
// shell-readers.ts). Each is the
// shared family of the same name (packages/shared/src/topics/) with its schema swapped for the
// shape derived from it; viewer-topics.test.ts holds each to its shared family: same names,
// same flags, and a reader that answers as the schema does.
import type { clockTopic as ClockFamily } from '@sagan/shared/topics/clock';
import type { gameTopic as GameFamily } from '@sagan/shared/topics/game';
import type {
  gameDetailOwnTopic as GameDetailOwnFamily,
  gameDetailTopic as GameDetailFamily,
} from '@sagan/shared/topics/game-detail';
import type { gameOwnTopic as GameOwnFamily } from '@sagan/shared/topics/game-own';
import type { favoritesTopic as FavoritesFamily } from '@sagan/shared/topics/user-favorites';
import type { myGamesTopic as MyGamesFamily } from '@sagan/shared/topics/user-games';
import { keyedViewed, userListViewed, type Viewed } from './shape.ts';
import * as shapes from './viewer-shapes.ts';

export const gameTopic: Viewed<typeof GameFamily> = keyedViewed('game', shapes.gameTopic, {
  private: false,
  coalesce: false,
});

export const gameOwnTopic: Viewed<typeof GameOwnFamily> = keyedViewed(
  'gameown',
  shapes.gameOwnTopic,
  { private: true, coalesce: false },
);

export const clockTopic: Viewed<typeof ClockFamily> = keyedViewed('clock', shapes.clockTopic, {
  private: false,
  coalesce: false,
});

export const gameDetailTopic: Viewed<typeof GameDetailFamily> = keyedViewed(
  'gamedetail',
  shapes.gameDetailTopic,
  { private: false, coalesce: false },
);

/** The scorers' detail: the public one's shape, with names the public is not shown. */
export const gameDetailOwnTopic: Viewed<typeof GameDetailOwnFamily> = keyedViewed(
  'gamedetailown',
  shapes.gameDetailTopic,
  { private: true, coalesce: false },
);

export const favoritesTopic: Viewed<typeof FavoritesFamily> = userListViewed(
  'favorites',
  shapes.favoritesTopic,
  { coalesce: true },
);

export const myGamesTopic: Viewed<typeof MyGamesFamily> = userListViewed(
  'games',
  shapes.myGamesTopic,
  { coalesce: true },
);
