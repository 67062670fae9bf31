import type { Queryable } from '../../db/db.ts';
import { guardGame } from '../../lib/game-guard.ts';
import { forbidden, HttpError, notFound } from '../../lib/http-errors.ts';
import { clockState, findGame, isBlocked, lockClock } from './repo.ts';

/** The game's owner may write; 404 for an unknown game, 403 for anyone else. */
export async function ownedGame(q: Queryable, uid: string, gameKey: string) {
  const game = await findGame(q, gameKey);
  if (!game) throw notFound('No game with this key');
  if (game.uid !== uid) throw forbidden();
  return game;
}

/** Every game is public: a person an operator blocked from public games makes none. */
export async function mayCreateGames(q: Queryable, uid: string): Promise<void> {
  if (await isBlocked(q, uid)) {
    throw new HttpError(
      403,
      'A moderator blocked your account from public games: you cannot create games for now',
    );
  }
}

/**
 * The clock of a game uid scores (its owner or a co-scorer), locked until the write commits;
 * 404 for an unknown game, 403 for anyone else.
 */
export async function scoredClock(q: Queryable, uid: string, gameKey: string) {
  const row = await lockClock(q, gameKey);
  if (!row) throw notFound('No game with this key');
  await guardGame(q, gameKey, row.uid, uid, 'score');
  return clockState(row);
}

/** The game, for someone who may `need` it: 404 for no such game, 403 for anyone else. */
export async function scoredGame(
  q: Queryable,
  uid: string,
  gameKey: string,
  need: 'score' | 'owner',
) {
  const game = await findGame(q, gameKey);
  if (!game) throw notFound('No game with this key');
  await guardGame(q, gameKey, game.uid, uid, need);
  return game;
}
