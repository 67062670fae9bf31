import crypto from 'node:crypto';
import type { Db, Queryable } from '../db/db.ts';
import { sha256 } from '../lib/keys.ts';
import type { SessionUser } from '@sagan/shared/auth';

export async function upsertUserOnSignIn(
  q: Queryable,
  user: { uid: string; displayName: string | undefined; email?: string | undefined },
): Promise<void> {
  // SPEC §4: lastLogin (ms as a string) is written on every sign-in.
  await q.query(
    `INSERT INTO users (uid, display_name, email, last_login) VALUES ($1, $2, $3, $4)
     ON CONFLICT (uid) DO UPDATE SET
       display_name = COALESCE(EXCLUDED.display_name, users.display_name),
       email = COALESCE(EXCLUDED.email, users.email),
       last_login = EXCLUDED.last_login`,
    [user.uid, user.displayName ?? null, user.email ?? null, String(Date.now())],
  );
}

/** Bearer callers (phone apps) are known users without a session; no lastLogin per request. */
export async function ensureUser(
  q: Queryable,
  user: { uid: string; displayName: string | undefined; email?: string | undefined },
): Promise<void> {
  await q.query(
    `INSERT INTO users (uid, display_name, email) VALUES ($1, $2, $3)
     ON CONFLICT (uid) DO NOTHING`,
    [user.uid, user.displayName ?? null, user.email ?? null],
  );
}

export async function createSession(db: Db, uid: string, days: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (id_hash, uid, expires_at)
     VALUES ($1, $2, now() + ($3 || ' days')::interval)`,
    [sha256(token), uid, String(days)],
  );
  return token;
}

export async function sessionUser(db: Db, token: string): Promise<SessionUser | null> {
  const rows = await db.query<{ uid: string; display_name: string | null }>(
    `SELECT u.uid, u.display_name FROM sessions s JOIN users u ON u.uid = s.uid
     WHERE s.id_hash = $1 AND s.expires_at > now()`,
    [sha256(token)],
  );
  const row = rows[0];
  return row ? { uid: row.uid, displayName: row.display_name } : null;
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id_hash = $1', [sha256(token)]);
}
