import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '@sagan/shared/auth';
import { keySchema } from '@sagan/shared/keys';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailOwnTopic, gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameHeldTopic } from '@sagan/shared/topics/game-held';
import { gameHistoryTopic } from '@sagan/shared/topics/game-history';
import { gameOwnTopic } from '@sagan/shared/topics/game-own';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { upcomingGamesTopic } from '@sagan/shared/topics/upcoming-games';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { scorerTopics } from '../../lib/game-guard.ts';
import {
  type DeletedGame,
  findPublicGame,
  loadClock,
  loadFavorites,
  loadFollowedTags,
  loadGameHistory,
  loadGameOwn,
  loadGameTopic,
  loadRecentGames,
  loadTagLists,
  loadTagTopic,
  loadUpcomingGames,
  loadUserGames,
  scoresGame,
  seesHidden,
} from './repo.ts';
import { loadGameDetail, loadGameDetailOwn } from './game-detail.ts';
import { loadGameHeld } from './held.ts';

const isKey = (arg: string) => keySchema.safeParse(arg).success;
const GAME_KEY = { table: 'games', column: 'game_key' };

/** DESIGN §4 topics of the scoreboards feature. */
export function registerScoreboardTopics(app: FastifyInstance): void {
  const { hub } = app;
  /** A game's private topics: to whoever may score it (its owner and co-scorers) only. */
  const scorersOnly = async (user: SessionUser | null, arg: string) =>
    !!user && isKey(arg) && (await scoresGame(app.db, user.uid, arg));
  // Anyone may watch any key, so a made-up one is answered from a batched existence check.
  hub.register({
    topic: gameTopic,
    authorize: (_u, arg) => isKey(arg),
    load: loadGameTopic,
    keyedBy: GAME_KEY,
  });
  hub.register({
    topic: clockTopic,
    authorize: (_u, arg) => isKey(arg),
    load: loadClock,
    keyedBy: GAME_KEY,
    // Viewers compute a running clock from the server's time (DESIGN §9): every state handed
    // out says when, even to a viewer who joins long after the clock last changed.
    stamp: (data) => (data ? { ...data, serverTime: Date.now() } : data),
  });
  // The game as its scorers and the operators see it, hidden or not.
  hub.register({
    topic: gameOwnTopic,
    follows: gameTopic,
    authorize: async (user, arg) =>
      !!user && isKey(arg) && (await seesHidden(app.db, user.uid, arg, app.config.adminUids)),
    load: loadGameOwn,
  });
  // The line score, folded from the log, for the full board.
  hub.register({
    topic: gameDetailTopic,
    authorize: (_u, arg) => isKey(arg),
    load: loadGameDetail,
    keyedBy: GAME_KEY,
  });
  // The same for the game's scorers, who read the names of an unpublished sheet's players.
  hub.register({
    topic: gameDetailOwnTopic,
    follows: gameDetailTopic,
    authorize: scorersOnly,
    load: loadGameDetailOwn,
  });
  // The scorers' history of changes: the owner's and the co-scorers'.
  hub.register({
    topic: gameHistoryTopic,
    authorize: scorersOnly,
    load: loadGameHistory,
  });
  // What waits for the scorers' decision: whoever may score the game, no one else.
  hub.register({
    topic: gameHeldTopic,
    authorize: scorersOnly,
    load: loadGameHeld,
  });
  hub.register({
    topic: recentGamesTopic,
    authorize: (_u, arg) => arg === 'recent',
    load: loadRecentGames,
  });
  hub.register({
    topic: upcomingGamesTopic,
    authorize: (_u, arg) => arg === '',
    load: loadUpcomingGames,
  });
  hub.register({ topic: tagsTopic, authorize: (_u, arg) => arg === '', load: loadTagLists });
  hub.register({
    topic: tagTopic,
    authorize: (_u, arg) => isKey(arg),
    load: loadTagTopic,
    keyedBy: { table: 'tags', column: 'tag_key' },
  });
  // SPEC §7 per-user reads, each live; the hub serves them to their own uid only (SPEC §6).
  hub.registerUserList(myGamesTopic, loadUserGames);
  hub.registerUserList(favoritesTopic, loadFavorites);
  hub.registerUserList(followedTagsTopic, loadFollowedTags);
}

/** countScoreboardWatchers: live subscribers of the game topic, on every node (DESIGN §4). */
export async function countWatchers(app: FastifyInstance, gameKey: string): Promise<number | null> {
  if (!(await findPublicGame(app.db, gameKey))) return null;
  return app.gameWatchers.total(gameTopic.name(gameKey));
}

/** What a write changed, as far as who hears of it goes. */
export type GameChange =
  /** A new game: the lists that show it. */
  | { kind: 'created'; ownerUid: string; scheduled: boolean }
  /** A game deleted: everything that showed it. */
  | ({ kind: 'deleted'; gameKey: string } & DeletedGame)
  /** The game's clock. */
  | { kind: 'clock'; gameKey: string }
  /** A viewer's own: what they bookmarked, or which tags they follow. */
  | { kind: 'bookmarks' | 'follows'; uid: string }
  /** A comment on the game: its topic carries the comments. */
  | { kind: 'comment'; gameKey: string }
  /** The team sheets linked to the game's teams: the line score names their players. */
  | { kind: 'sheets'; gameKey: string }
  /** The game's tags: the tags it gained or lost, and those tags' followers. */
  | { kind: 'tags'; gameKey: string; tagKeys: string[]; followers: string[] };

/** The topics whose subscribers may lose the right to them when the game goes: its scorers'. */
export function closedBy(change: { kind: 'deleted'; gameKey: string }): string[] {
  return [...scorerTopics('game', change.gameKey), coscorersTopic.name('game', change.gameKey)];
}

/**
 * The topics a write touches, decided here for every write of the feature that is not an
 * event log's (lib/game-write.ts names those): never in a route or the repo.
 */
export function audienceOf(change: GameChange): string[] {
  switch (change.kind) {
    case 'created':
      return [
        recentGamesTopic.name(),
        myGamesTopic.name(change.ownerUid),
        ...(change.scheduled ? [upcomingGamesTopic.name()] : []),
      ];
    case 'deleted':
      return [
        gameTopic.name(change.gameKey),
        clockTopic.name(change.gameKey),
        gameHistoryTopic.name(change.gameKey),
        gameDetailTopic.name(change.gameKey),
        recentGamesTopic.name(),
        upcomingGamesTopic.name(),
        myGamesTopic.name(change.ownerUid),
        ...(change.tagKeys.length ? [tagsTopic.name()] : []),
        ...change.tagKeys.map(tagTopic.name),
        ...change.bookmarkers.map(favoritesTopic.name),
        ...change.tagFollowers.map(followedTagsTopic.name),
        ...change.scorers.map(myScoringTopic.name),
        gameHeldTopic.name(change.gameKey),
        coscorersTopic.name('game', change.gameKey),
      ];
    case 'clock':
      return [clockTopic.name(change.gameKey)];
    case 'bookmarks':
      return [favoritesTopic.name(change.uid)];
    case 'follows':
      return [followedTagsTopic.name(change.uid)];
    case 'comment':
      return [gameTopic.name(change.gameKey)];
    case 'sheets':
      return [gameDetailTopic.name(change.gameKey)];
    case 'tags':
      return [
        gameTopic.name(change.gameKey),
        tagsTopic.name(),
        ...change.tagKeys.map((k) => tagTopic.name(k)),
        ...change.followers.map((uid) => followedTagsTopic.name(uid)),
      ];
  }
}
