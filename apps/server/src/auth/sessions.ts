// The session store stays outside routes/auth: the auth plugin and the socket route read it too.
import crypto from 'node:crypto';
import type { Db, Queryable } from '../db/db.ts';
import { sha256 } from '../lib/keys.ts';
import type { SessionUser } from '@sagan/shared/auth';
import type { SessionCache } from './session-cache.ts';

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

/** The id a session is known by in the store and to realtime: never the cookie's token itself. */
export const sessionIdOf = (token: string): string => sha256(token);

// A session lives until its absolute expiry and only while it is used: $2 is the idle limit in
// days. Written against the sessions table aliased s.
const LIVE = `s.expires_at > now() AND s.last_seen_at > now() - make_interval(days => $2::int)`;

/**
 * The user of a live session, or null. The session's last use is written at most once an hour
 * (the idle limit counts in days), so a busy user costs no write per request; with a cache, a
 * busy user costs no read either: the cache renews the session in the background while it is
 * in use (session-cache.ts), and only a session unused for a while is waited for.
 */
export async function sessionUser(
  db: Db,
  token: string,
  idleDays: number,
  cache?: SessionCache,
): Promise<SessionUser | null> {
  const id = sessionIdOf(token);
  const cached = cache?.get(id);
  if (cached) {
    if (cached.renew) {
      // Never awaited: this request goes on with what is remembered. A failed read keeps the
      // entry until its time is up, and the next use tries again.
      readSession(db, id, idleDays, cache).then(
        (user) => {
          if (!user) cache!.forget([id]);
          else cache!.renewEnded(id);
        },
        () => cache!.renewEnded(id),
      );
    }
    return cached.user;
  }
  return readSession(db, id, idleDays, cache);
}

/** The session from the store (writing its last use when stale), remembered in the cache. */
async function readSession(
  db: Db,
  id: string,
  idleDays: number,
  cache: SessionCache | undefined,
): Promise<SessionUser | null> {
  const started = cache?.lookupStarts();
  const rows = await db.query<{
    uid: string;
    display_name: string | null;
    stale: boolean;
    expires_ms: number;
  }>(
    `SELECT u.uid, u.display_name, s.last_seen_at < now() - interval '1 hour' AS stale,
       (extract(epoch FROM s.expires_at) * 1000)::float8 AS expires_ms
     FROM sessions s JOIN users u ON u.uid = s.uid
     WHERE s.id_hash = $1 AND ${LIVE}`,
    [id, idleDays],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.stale)
    await db.query('UPDATE sessions SET last_seen_at = now() WHERE id_hash = $1', [id]);
  const user = { uid: row.uid, displayName: row.display_name };
  if (cache && started !== undefined) cache.remember(id, user, row.expires_ms, started);
  return user;
}

/** Which of these session ids are still live (not signed out, expired or idle too long). */
export async function liveSessionIds(
  q: Queryable,
  ids: string[],
  idleDays: number,
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await q.query<{ id_hash: string }>(
    `SELECT s.id_hash FROM sessions s WHERE s.id_hash = ANY($1::text[]) AND ${LIVE}`,
    [ids, idleDays],
  );
  return new Set(rows.map((r) => r.id_hash));
}

/** Ends one session; its id, or null when there was no such session. */
export async function revokeSession(db: Db, token: string): Promise<string | null> {
  const rows = await db.query<{ id_hash: string }>(
    'DELETE FROM sessions WHERE id_hash = $1 RETURNING id_hash',
    [sessionIdOf(token)],
  );
  return rows[0]?.id_hash ?? null;
}

/** Ends every session of a user ("sign out everywhere"); the ids of those that ended. */
export async function revokeAllSessions(db: Db, uid: string): Promise<string[]> {
  const rows = await db.query<{ id_hash: string }>(
    'DELETE FROM sessions WHERE uid = $1 RETURNING id_hash',
    [uid],
  );
  return rows.map((r) => r.id_hash);
}
