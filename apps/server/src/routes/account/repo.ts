import type { Queryable } from '../../db/db.ts';
import type { PhotoStore } from '../photos/public.ts';
import { deleteTeam } from '../teamsheets/public.ts';

/** Who made an event once its maker deleted their account: no account has an empty uid. */
const ANONYMOUS_UID = '';

/** One user's rows of a query, as plain JSON (timestamps as ISO text). */
const rows = (q: Queryable, sql: string, uid: string) =>
  q.query<Record<string, unknown>>(sql, [uid]);

/**
 * Everything Sagan holds about one person, as one JSON document (the export a parent downloads):
 * their account, games with comments, tags and the messages viewers sent them, the messages
 * they sent, tags they follow, bookmarks, teams with players, groups and photos (as data URLs,
 * so the file stands alone), play counts and their share links. Read in one snapshot.
 */
export async function collectMyData(
  q: Queryable,
  uid: string,
  store: PhotoStore,
  origin: string,
): Promise<Record<string, unknown>> {
  const [account] = await rows(
    q,
    `SELECT uid, display_name AS "displayName", email, created_at AS "createdAt"
       FROM users WHERE uid = $1`,
    uid,
  );
  const games = await rows(
    q,
    `SELECT g.game_key AS "gameKey", g.fields AS scoreboard, g.created_at AS "createdAt",
            coalesce((SELECT json_agg(c.comment ORDER BY c.id) FROM game_comments c
                       WHERE c.game_key = g.game_key), '[]') AS comments,
            coalesce((SELECT json_agg(t.name ORDER BY t.name) FROM game_tags gt
                        JOIN tags t ON t.tag_key = gt.tag_key
                       WHERE gt.game_key = g.game_key), '[]') AS tags,
            coalesce((SELECT json_agg(json_build_object('message', m.message,
                                                        'sentAt', m.created_at) ORDER BY m.id)
                        FROM scorekeeper_messages m WHERE m.game_key = g.game_key), '[]')
              AS "messagesReceived"
       FROM games g WHERE g.uid = $1 ORDER BY g.created_at`,
    uid,
  );
  const messagesSent = await rows(
    q,
    `SELECT game_key AS "gameKey", message, created_at AS "sentAt"
       FROM scorekeeper_messages WHERE from_uid = $1 ORDER BY id`,
    uid,
  );
  const tagsFollowed = await rows(
    q,
    `SELECT t.name FROM followed_tags f JOIN tags t ON t.tag_key = f.tag_key
      WHERE f.uid = $1 ORDER BY t.name`,
    uid,
  );
  const bookmarkedScoreboards = await rows(
    q,
    `SELECT game_key AS "gameKey", game_name AS "gameName" FROM favorite_scoreboards
      WHERE uid = $1 ORDER BY game_name`,
    uid,
  );
  const bookmarkedTeamSheets = await rows(
    q,
    `SELECT published_as_key AS "publishedAsKey", team_name AS "teamName" FROM favorite_rosters
      WHERE uid = $1 ORDER BY team_name`,
    uid,
  );
  const teams = await rows(
    q,
    `SELECT t.team_key AS "teamKey", t.team_name AS "teamName", t.team_notes AS "teamNotes",
            t.published_as_key AS "publishedAsKey",
            coalesce((SELECT json_agg(json_build_object('playerKey', p.player_key,
                       'jersey', p.jersey, 'playerName', p.player_name,
                       'playerNotes', p.player_notes, 'photoId', p.photo_id)
                       ORDER BY p.player_name) FROM players p WHERE p.team_key = t.team_key),
                     '[]') AS players,
            coalesce((SELECT json_agg(json_build_object('groupKey', g.group_key,
                       'groupName', g.group_name,
                       'members', (SELECT coalesce(json_agg(json_build_object(
                                     'playerKey', m.player_key, 'location', m.location)), '[]')
                                     FROM group_membership m
                                    WHERE m.team_key = g.team_key AND m.group_key = g.group_key)))
                       FROM team_groups g WHERE g.team_key = t.team_key), '[]') AS groups
       FROM teams t WHERE t.uid = $1 ORDER BY t.created_at`,
    uid,
  );
  const playCounts = await rows(
    q,
    `SELECT game_key AS "gameKey", game, archived, share_key AS "shareKey",
            updated_at AS "updatedAt"
       FROM play_count_games WHERE uid = $1 ORDER BY updated_at`,
    uid,
  );
  const photos: Record<string, unknown>[] = [];
  for (const { id } of await q.query<{ id: string }>(
    'SELECT id FROM photos WHERE uid = $1 ORDER BY id',
    [uid],
  )) {
    const bytes = await store.read(id);
    if (bytes)
      photos.push({ photoId: id, dataUrl: `data:image/jpeg;base64,${bytes.toString('base64')}` });
  }
  return {
    exportedAt: new Date().toISOString(),
    site: origin,
    account,
    games,
    messagesSent,
    tagsFollowed: tagsFollowed.map((t) => t['name']),
    bookmarks: { scoreboards: bookmarkedScoreboards, teamSheets: bookmarkedTeamSheets },
    teams,
    photos,
    playCounts: playCounts.map((p) => ({
      ...p,
      shareLink: p['shareKey']
        ? `${origin}/apps/sagan/playcountshare/${String(p['shareKey'])}`
        : null,
    })),
  };
}

export interface OwnedKeys {
  teams: string[];
  games: string[];
  playCounts: { gameKey: string; shareKey: string | null }[];
}

export async function ownedKeys(q: Queryable, uid: string): Promise<OwnedKeys> {
  const teams = await q.query<{ k: string }>('SELECT team_key AS k FROM teams WHERE uid = $1', [
    uid,
  ]);
  const games = await q.query<{ k: string }>('SELECT game_key AS k FROM games WHERE uid = $1', [
    uid,
  ]);
  const playCounts = await q.query<{ gameKey: string; shareKey: string | null }>(
    `SELECT game_key AS "gameKey", share_key AS "shareKey" FROM play_count_games WHERE uid = $1`,
    [uid],
  );
  return { teams: teams.map((r) => r.k), games: games.map((r) => r.k), playCounts };
}

/** The account's row, locked until the deletion commits; false when it is gone already. */
export async function lockAccount(q: Queryable, uid: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE uid = $1 FOR UPDATE', [uid]);
  return rows.length > 0;
}

/** What deleting an account's rows removed (its games go first, each as its owner's delete). */
export interface DeletedAccount {
  /** The team sheets' changes, as their own delete names them. */
  teams: NonNullable<Awaited<ReturnType<typeof deleteTeam>>['change']>[];
  /** Photo files to remove from the disk once the rows are gone. */
  photoIds: string[];
  playCounts: { gameKey: string; shareKey: string | null }[];
  /** The hashes of the sessions ended. */
  sessions: string[];
  /** Games made after the games' deletion (another tab). */
  lateGames: string[];
}

/**
 * Deletes everything an account holds but its games, then the account's row. What it did in
 * other people's games and counts stays in their logs, without its name.
 */
export async function deleteAccountRows(q: Queryable, uid: string): Promise<DeletedAccount> {
  const photoIds: string[] = [];
  const changes: DeletedAccount['teams'] = [];
  // Read again inside the transaction: a team made meanwhile goes too.
  const teams = await q.query<{ team_key: string }>(
    'SELECT team_key FROM teams WHERE uid = $1 FOR UPDATE',
    [uid],
  );
  for (const { team_key: teamKey } of teams) {
    const gone = await deleteTeam(q, teamKey);
    photoIds.push(...gone.photoIds);
    if (gone.change) changes.push(gone.change);
  }
  const playCounts = await q.query<{ gameKey: string; shareKey: string | null }>(
    `DELETE FROM play_count_games WHERE uid = $1 RETURNING game_key AS "gameKey", share_key AS "shareKey"`,
    [uid],
  );
  const rest = await q.query<{ id: string }>(
    `DELETE FROM photos ph WHERE ph.uid = $1
       AND NOT EXISTS (SELECT 1 FROM players p WHERE p.photo_id = ph.id) RETURNING id`,
    [uid],
  );
  photoIds.push(...rest.map((r) => r.id));
  const sessions = await q.query<{ id_hash: string }>(
    'DELETE FROM sessions WHERE uid = $1 RETURNING id_hash',
    [uid],
  );
  // A game made after the games' deletion (another tab) would keep the user's row.
  const late = await q.query<{ game_key: string }>(
    'DELETE FROM games WHERE uid = $1 RETURNING game_key',
    [uid],
  );
  // What they did in other people's games and counts stays in those logs (their scores
  // depend on it), but no longer says who: the Changes list then names nobody.
  await q.query(`UPDATE game_events SET uid = $2, device = NULL, base_seq = NULL WHERE uid = $1`, [
    uid,
    ANONYMOUS_UID,
  ]);
  await q.query(
    `UPDATE playcount_events SET uid = $2, device = NULL, base_seq = NULL WHERE uid = $1`,
    [uid, ANONYMOUS_UID],
  );
  // The moderation log keeps what was done, not to whom or by whom, nor to which of
  // their games (whose names may name their children), and tells them nothing more.
  await q.query(
    `UPDATE moderation_actions
        SET owner_uid = $2, game_key = '', game_name = '', detail = '',
            owner_seen_at = coalesce(owner_seen_at, now())
      WHERE owner_uid = $1`,
    [uid, ANONYMOUS_UID],
  );
  await q.query(`UPDATE moderation_actions SET admin_uid = $2 WHERE admin_uid = $1`, [
    uid,
    ANONYMOUS_UID,
  ]);
  // Bookmarks, follows, messages sent, reports and idempotency keys go with the user's row.
  await q.query('DELETE FROM users WHERE uid = $1', [uid]);
  return {
    teams: changes,
    photoIds,
    playCounts,
    sessions: sessions.map((s) => s.id_hash),
    lateGames: late.map((g) => g.game_key),
  };
}
