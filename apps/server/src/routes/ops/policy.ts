import type { SessionUser } from '@sagan/shared/auth';
import type { Queryable } from '../../db/db.ts';
import { notFound } from '../../lib/http-errors.ts';
import { findPublicComment, findPublicGame } from '../scoreboards/public.ts';

/**
 * The operators' guard: the uid of a signed-in operator named in ADMIN_UIDS. Anyone else gets
 * the 404 of a path that does not exist, so the queue's existence is not told.
 */
export function operatorOf(user: SessionUser | null, adminUids: readonly string[]): string {
  if (!user || !adminUids.includes(user.uid)) throw notFound();
  return user.uid;
}

/** Anyone signed in may report a game the public sees; any other is not found. */
export async function reportableGame(q: Queryable, gameKey: string): Promise<void> {
  if (!(await findPublicGame(q, gameKey))) throw notFound('No game with this key');
}

/** The same for a comment the public sees, on that game. */
export async function reportableComment(
  q: Queryable,
  gameKey: string,
  commentId: string,
): Promise<void> {
  if (!(await findPublicComment(q, gameKey, commentId))) throw notFound('No comment with this id');
}
