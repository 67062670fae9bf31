import type { Queryable } from '../../db/db.ts';
import { roleOn } from '../../lib/game-guard.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { ownerOf } from './repo.ts';

export const NOT_FOUND = 'Play count not found';

/** What only a count's owner may do (share it, archive it): anyone else gets a 404. */
export async function ownedCount(q: Queryable, uid: string, gameKey: string): Promise<void> {
  if ((await ownerOf(q, gameKey)) !== uid) throw notFound(NOT_FOUND);
}

/**
 * Who may PUT a whole count: anyone under a new key, its owner or co-counters under a taken one;
 * anyone else gets 403, as the phone app's contract says (it must learn its key is taken).
 */
export async function mayPutCount(q: Queryable, uid: string, gameKey: string): Promise<void> {
  const owner = await ownerOf(q, gameKey);
  if (owner !== null && !(await roleOn(q, 'playcount', gameKey, owner, uid))) throw forbidden();
}
