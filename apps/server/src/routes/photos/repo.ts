import type { Queryable } from '../../db/db.ts';

// The photos' SQL: their own rows, and the three features' rows that decide who sees one
// (a sheet's players, a published sheet's public copy, a play count's roster and share link).
// Rows, or null when there is none; who may see what is policy.ts's.

/** Records whose a stored photo file is, in the caller's transaction. */
export async function insertPhoto(q: Queryable, photoId: string, uid: string): Promise<void> {
  await q.query('INSERT INTO photos (id, uid) VALUES ($1, $2)', [photoId, uid]);
}

/** Deletes the photo's row if no player refers to it any more; true when it went. */
export async function deleteUnusedPhoto(q: Queryable, photoId: string): Promise<boolean> {
  const gone = await q.query(
    `DELETE FROM photos WHERE id = $1
       AND NOT EXISTS (SELECT 1 FROM players WHERE photo_id = $1) RETURNING id`,
    [photoId],
  );
  return gone.length > 0;
}

/** Deletes every photo row no player refers to; the ids that went. */
export async function deleteUnusedPhotos(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `DELETE FROM photos ph WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.photo_id = ph.id)
     RETURNING id`,
  );
  return rows.map((r) => r.id);
}

export async function knownPhotoIds(q: Queryable): Promise<Set<string>> {
  const rows = await q.query<{ id: string }>('SELECT id FROM photos');
  return new Set(rows.map((r) => r.id));
}

/**
 * The photo a published sheet shows for a player, checked against the sheet as it is now:
 * still published under that key, photos not hidden, the public copy lists the player with a
 * photo, and the player still exists with one.
 */
export async function publishedPhotoId(
  q: Queryable,
  publishedAsKey: string,
  playerKey: string,
): Promise<string | null> {
  const rows = await q.query<{ photo_id: string }>(
    `SELECT p.photo_id FROM rosters r
       JOIN teams t ON t.team_key = r.team_key AND t.published_as_key = r.published_as_key
       JOIN players p ON p.team_key = t.team_key AND p.player_key = $2
      WHERE r.published_as_key = $1 AND NOT t.public_hide_photos AND p.photo_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(r.sheet->'roster') e
                     WHERE e->>'key' = $2 AND coalesce(e->>'imageURL', '') <> '')`,
    [publishedAsKey, playerKey],
  );
  return rows[0]?.photo_id ?? null;
}

/** The photo of a player on a sheet uid owns. */
export async function ownerPhotoId(
  q: Queryable,
  uid: string,
  teamKey: string,
  playerKey: string,
): Promise<string | null> {
  const rows = await q.query<{ photo_id: string | null }>(
    `SELECT p.photo_id FROM players p JOIN teams t ON t.team_key = p.team_key
      WHERE p.team_key = $1 AND p.player_key = $2 AND t.uid = $3`,
    [teamKey, playerKey, uid],
  );
  return rows[0]?.photo_id ?? null;
}

/**
 * A player of a sheet uid owns, found by the sheet's published key: their photo (or null), or
 * null when uid owns no such player.
 */
export async function ownPublishedPlayer(
  q: Queryable,
  uid: string,
  publishedAsKey: string,
  playerKey: string,
): Promise<{ photoId: string | null } | null> {
  const rows = await q.query<{ photo_id: string | null }>(
    `SELECT p.photo_id FROM teams t JOIN players p ON p.team_key = t.team_key
      WHERE t.published_as_key = $1 AND p.player_key = $2 AND t.uid = $3`,
    [publishedAsKey, playerKey, uid],
  );
  return rows[0] ? { photoId: rows[0].photo_id } : null;
}

/** A photo uid uploaded, by its id (what a URL from before internal ids names). */
export async function ownPhotoId(
  q: Queryable,
  uid: string,
  photoId: string,
): Promise<string | null> {
  const rows = await q.query<{ id: string }>('SELECT id FROM photos WHERE id = $1 AND uid = $2', [
    photoId,
    uid,
  ]);
  return rows[0]?.id ?? null;
}

/** The image URL a play count of uid's keeps for a player in its roster. */
export async function playCountImageUrlOf(
  q: Queryable,
  uid: string,
  gameKey: string,
  playerKey: string,
): Promise<string | null> {
  const rows = await q.query<{ url: string | null }>(
    `SELECT e->>'imageURL' AS url
       FROM play_count_games g, jsonb_array_elements(g.game->'roster') e
      WHERE g.game_key = $1 AND g.uid = $2 AND e->>'key' = $3 LIMIT 1`,
    [gameKey, uid, playerKey],
  );
  return rows[0]?.url ?? null;
}

/** The play count shared under shareKey, when its own copy of the sheet's privacy shows photos. */
export async function sharedCountShowingPhotos(
  q: Queryable,
  shareKey: string,
): Promise<{ uid: string; gameKey: string } | null> {
  const rows = await q.query<{ uid: string; game_key: string }>(
    `SELECT uid, game_key FROM play_count_games
      WHERE share_key = $1 AND NOT privacy_hide_photos`,
    [shareKey],
  );
  return rows[0] ? { uid: rows[0].uid, gameKey: rows[0].game_key } : null;
}
