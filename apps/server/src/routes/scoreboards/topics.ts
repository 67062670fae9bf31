import type { FastifyInstance } from 'fastify';
import { keySchema } from '@sagan/shared/keys';
import {
  findGame,
  loadClock,
  loadFavorites,
  loadFollowedTags,
  loadGameTopic,
  loadRecentGames,
  loadTagLists,
  loadTagTopic,
  loadUserGames,
} from './repo.ts';

const isKey = (arg: string) => keySchema.safeParse(arg).success;
const GAME_KEY = { table: 'games', column: 'game_key' };

/** DESIGN §4 topics of the scoreboards feature. */
export function registerScoreboardTopics(app: FastifyInstance): void {
  const { hub } = app;
  // Anyone may watch any key, so a made-up one is answered from a batched existence check.
  hub.register({
    prefix: 'game',
    authorize: (_u, arg) => isKey(arg),
    load: loadGameTopic,
    keyedBy: GAME_KEY,
  });
  hub.register({
    prefix: 'clock',
    authorize: (_u, arg) => isKey(arg),
    load: loadClock,
    keyedBy: GAME_KEY,
  });
  hub.register({
    prefix: 'games',
    authorize: (_u, arg) => arg === 'recent',
    load: loadRecentGames,
  });
  hub.register({ prefix: 'tags', authorize: (_u, arg) => arg === '', load: loadTagLists });
  hub.register({
    prefix: 'tag',
    authorize: (_u, arg) => isKey(arg),
    load: loadTagTopic,
    keyedBy: { table: 'tags', column: 'tag_key' },
  });
  // SPEC §7 per-user reads, each live; the hub serves them to their own uid only (SPEC §6).
  hub.registerUserList('games', loadUserGames);
  hub.registerUserList('favorites', loadFavorites);
  hub.registerUserList('followedTags', loadFollowedTags);
}

/** countScoreboardWatchers: live subscribers of the game topic on this node (DESIGN §4). */
export async function countWatchers(app: FastifyInstance, gameKey: string): Promise<number | null> {
  if (!(await findGame(app.db, gameKey))) return null;
  return app.hub.subscriberCount(`game:${gameKey}`);
}
