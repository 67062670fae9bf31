import type { SessionUser } from '@sagan/shared/auth';
import { notFound } from '../../lib/http-errors.ts';

/**
 * The operators' guard: the uid of a signed-in operator named in ADMIN_UIDS. Anyone else gets
 * the 404 of a path that does not exist, so the queue's existence is not told.
 */
export function operatorOf(user: SessionUser | null, adminUids: readonly string[]): string {
  if (!user || !adminUids.includes(user.uid)) throw notFound();
  return user.uid;
}
