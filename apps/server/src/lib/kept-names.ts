import type { Queryable } from '../db/db.ts';

/**
 * A user's list of things kept by key with the thing's name as it was when kept (bookmarked
 * games, SPEC §7; followed team sheets): keeping one again refreshes the name. The table's
 * primary key is (uid, keyColumn).
 */
export function keptWithName(table: string, keyColumn: string, nameColumn: string) {
  return {
    async keep(q: Queryable, uid: string, key: string, name: string): Promise<void> {
      await q.query(
        `INSERT INTO ${table} (uid, ${keyColumn}, ${nameColumn}) VALUES ($1, $2, $3)
         ON CONFLICT (uid, ${keyColumn}) DO UPDATE SET ${nameColumn} = EXCLUDED.${nameColumn}`,
        [uid, key, name],
      );
    },
    async drop(q: Queryable, uid: string, key: string): Promise<void> {
      await q.query(`DELETE FROM ${table} WHERE uid = $1 AND ${keyColumn} = $2`, [uid, key]);
    },
  };
}
