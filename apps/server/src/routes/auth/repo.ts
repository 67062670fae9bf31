import type { Queryable } from '../../db/db.ts';

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
