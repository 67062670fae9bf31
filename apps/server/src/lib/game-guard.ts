import { gameHeldTopic } from '@sagan/shared/topics/game-held';
import { gameHistoryTopic } from '@sagan/shared/topics/game-history';
import { gameOwnTopic } from '@sagan/shared/topics/game-own';
import { gameDetailOwnTopic } from '@sagan/shared/topics/game-detail';
import { playCountTopic } from '@sagan/shared/topics/playcount';
import type { Queryable } from '../db/db.ts';
import { forbidden } from './http-errors.ts';

/** What a signed-in user may do to a game or a play count (DESIGN §10). */
export type GameRole = 'owner' | 'scorer';

/** What a role is needed for: scoring (taps, edits, the clock, held events) or the rest. */
export type Need = 'score' | 'owner';

/** A game (`games.game_key`) or a play count (`play_count_games.game_key`). */
export type ScoredThing = 'game' | 'playcount';

const BOUND = {
  game: 'SELECT 1 FROM coscorers WHERE game_key = $1 AND uid = $2',
  playcount: 'SELECT 1 FROM coscorers WHERE playcount_key = $1 AND uid = $2',
} as const;

/**
 * The role uid has on a game or a play count whose owner is `ownerUid`: the owner, a
 * co-scorer bound by a redeemed invitation, or none (null). The owner's own writes cost no
 * statement; a co-scorer's one indexed look-up, made inside the write's transaction so that a
 * revocation committed before it is seen.
 */
export async function roleOn(
  q: Queryable,
  thing: ScoredThing,
  key: string,
  ownerUid: string,
  uid: string,
): Promise<GameRole | null> {
  if (ownerUid === uid) return 'owner';
  const rows = await q.query(BOUND[thing], [key, uid]);
  return rows.length ? 'scorer' : null;
}

/**
 * The one owner/co-scorer guard of game writes: the owner may do anything; a co-scorer may
 * score (taps, scoreboard edits other than the name, the clock, resolving held events, their
 * own undo); anyone else, and a co-scorer asking for more, gets 403. `ownerUid` comes from the
 * row the write has locked.
 */
export async function guardGame(
  q: Queryable,
  gameKey: string,
  ownerUid: string,
  uid: string,
  need: Need,
): Promise<GameRole> {
  const role = await roleOn(q, 'game', gameKey, ownerUid, uid);
  if (role === 'owner' || (role === 'scorer' && need === 'score')) return role;
  throw forbidden();
}

/**
 * The topics only a game's or count's scorers may watch: what a co-scorer's socket loses when
 * the owner removes them (hub.recheck), and everyone's when the thing is deleted.
 */
export function scorerTopics(thing: ScoredThing, key: string): string[] {
  return thing === 'game'
    ? [
        gameHistoryTopic.name(key),
        gameHeldTopic.name(key),
        gameOwnTopic.name(key),
        gameDetailOwnTopic.name(key),
      ]
    : [playCountTopic.name(key)];
}
