import type { Queryable } from '../../db/db.ts';
import { unauthorized } from '../../lib/http-errors.ts';
import { lockAccount } from './repo.ts';

/**
 * Only the signed-in user's own account, its row locked until the deletion commits: a second
 * deletion racing it (another tab) waits, then finds no account.
 */
export async function ownAccount(q: Queryable, uid: string): Promise<void> {
  if (!(await lockAccount(q, uid))) throw unauthorized();
}
