import type { Queryable } from '../../db/db.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { findGame } from './repo.ts';

/** The game's owner may write; 404 for an unknown game, 403 for anyone else. */
export async function ownedGame(q: Queryable, uid: string, gameKey: string) {
  const game = await findGame(q, gameKey);
  if (!game) throw notFound('No game with this key');
  if (game.uid !== uid) throw forbidden();
  return game;
}
