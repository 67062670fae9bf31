import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { playCountShareTopic } from '@sagan/shared/topics/playcount-share';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { upcomingGamesTopic } from '@sagan/shared/topics/upcoming-games';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { keyInPath } from './lib/keys.ts';

// The public pages the server renders with their data (docs/decisions/0013), and how it tells
// from that data that the thing a page shows does not exist: that page then answers 404, so a
// search engine or a link checker sees what a viewer sees.

export interface TopicState {
  topic: string;
  seq: number;
  data: unknown;
}

export interface RenderedPage {
  /** The topics the page shows, in the order its states are handed to the renderer. */
  topics: string[];
  /** True when the states say the game, sheet, player or link is not there. */
  missing(states: TopicState[]): boolean;
  /**
   * Shows the signed-in user's own things: rendered for that user's session and kept apart
   * from every other user's render, never in a shared cache.
   */
  perUser?: true;
}

const firstIsNull = (states: TopicState[]) => states[0]?.data == null;

/** The page of a route's keys, for the signed-in user (null: signed out). */
type Resolver = (keys: string[], uid: string | null) => RenderedPage;

/** Route pattern (the path after the base path) → the page; its groups are keys. */
const PAGES: ReadonlyArray<[RegExp, Resolver]> = [
  // The dashboard's current games, upcoming games and tag lists: always there, if empty.
  [
    /^\/$/,
    () => ({
      topics: [recentGamesTopic.name(), upcomingGamesTopic.name(), tagsTopic.name()],
      missing: () => false,
    }),
  ],
  // Scoreboards: the user's own games, co-scored games, bookmarks and followed tags. Signed
  // out it shows no data, only the invitation to sign in (SPEC §2).
  [
    /^\/scoreboards\/?$/,
    (_keys, uid) => ({
      topics: uid
        ? [
            myGamesTopic.name(uid),
            myScoringTopic.name(uid),
            favoritesTopic.name(uid),
            followedTagsTopic.name(uid),
          ]
        : [],
      missing: () => false,
      perUser: true,
    }),
  ],
  [
    /^\/taggedscoreboards\/([^/]+)\/?$/,
    ([tag]) => ({ topics: [tagTopic.name(tag!)], missing: firstIsNull }),
  ],
  // The full board also shows the clock, so a game in play does not first show '--:--', and
  // the line score, so it does not appear after paint.
  [
    /^\/viewscoreboard\/([^/]+)\/?$/,
    ([game]) => ({
      topics: [gameTopic.name(game!), clockTopic.name(game!), gameDetailTopic.name(game!)],
      missing: firstIsNull,
    }),
  ],
  [
    /^\/viewscoreboardmini\/([^/]+)\/?$/,
    // The mini card shows the clock too.
    ([game]) => ({
      topics: [gameTopic.name(game!), clockTopic.name(game!)],
      missing: firstIsNull,
    }),
  ],
  [
    /^\/teamsheets\/([^/]+)\/?$/,
    ([sheet]) => ({ topics: [rosterTopic.name(sheet!)], missing: firstIsNull }),
  ],
  [
    /^\/teamsheets\/([^/]+)\/([^/]+)\/?$/,
    ([sheet, player]) => ({
      topics: [rosterTopic.name(sheet!)],
      missing: (states) => {
        const roster = states[0]?.data as { roster?: { key: string }[] } | null | undefined;
        return !roster?.roster?.some((p) => p.key === player);
      },
    }),
  ],
  [
    /^\/playcountshare\/([^/]+)\/?$/,
    ([share]) => ({ topics: [playCountShareTopic.name(share!)], missing: firstIsNull }),
  ],
];

/**
 * The rendered page of a route, 'malformed' when the route is one of them but a key in it
 * cannot be one (nothing to look up: not found), or null for every other route.
 */
export function renderedPage(route: string, uid: string | null): RenderedPage | 'malformed' | null {
  for (const [re, resolve] of PAGES) {
    const m = re.exec(route);
    if (!m) continue;
    const keys = m.slice(1).map(keyInPath);
    if (keys.some((k) => k === null)) return 'malformed';
    return resolve(keys as string[], uid);
  }
  return null;
}
