import type { ModerationNotice, ModerationQueue } from '@sagan/shared/moderation';
import type { Queryable } from '../../db/db.ts';
import { notFound } from '../../lib/http-errors.ts';

type Action = 'hide' | 'unhide' | 'dismiss';

const NOTICES_SHOWN = 20;

/**
 * An operator's action on a game, logged with who and when: hide (and close its reports),
 * unhide, or dismiss its reports. Hiding or restoring is also a notice to the owner, unless it
 * changes nothing. Answers the game's owner (whose lists must follow).
 */
export async function moderate(
  q: Queryable,
  adminUid: string,
  gameKey: string,
  action: Action,
): Promise<string> {
  const [game] = await q.query<{ uid: string; name: string | null; hidden: boolean }>(
    `SELECT uid, fields ->> 'gameName' AS name, hidden_at IS NOT NULL AS hidden
       FROM games WHERE game_key = $1 FOR UPDATE`,
    [gameKey],
  );
  if (!game) throw notFound('No game with this key');
  if (action === 'hide') {
    await q.query('UPDATE games SET hidden_at = coalesce(hidden_at, now()) WHERE game_key = $1', [
      gameKey,
    ]);
  } else if (action === 'unhide') {
    await q.query('UPDATE games SET hidden_at = NULL WHERE game_key = $1', [gameKey]);
  }
  if (action !== 'unhide') {
    await q.query(
      `UPDATE moderation_reports SET closed_at = now() WHERE game_key = $1 AND closed_at IS NULL`,
      [gameKey],
    );
  }
  const tells = (action === 'hide' && !game.hidden) || (action === 'unhide' && game.hidden);
  await q.query(
    `INSERT INTO moderation_actions (admin_uid, action, game_key, owner_uid, game_name, owner_seen_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN NULL ELSE now() END)`,
    [adminUid, action, gameKey, game.uid, game.name ?? '', tells],
  );
  return game.uid;
}

/** The owner's notices not dismissed yet, newest first (user:{uid}:notices). */
export async function loadNotices(q: Queryable, uid: string): Promise<ModerationNotice[]> {
  const rows = await q.query<{
    id: number | string;
    action: Action;
    game_key: string;
    game_name: string;
    at: string;
  }>(
    `SELECT id, action, game_key, game_name,
            to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
       FROM moderation_actions WHERE owner_uid = $1 AND owner_seen_at IS NULL
      ORDER BY id DESC LIMIT ${NOTICES_SHOWN}`,
    [uid],
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.action === 'hide' ? 'hidden' : 'restored',
    gameKey: r.game_key,
    gameName: r.game_name,
    at: r.at,
  }));
}

/** The owner dismisses a notice; false when it is not theirs or not shown any more. */
export async function dismissNotice(q: Queryable, uid: string, id: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE moderation_actions SET owner_seen_at = now()
      WHERE id = $1 AND owner_uid = $2 AND owner_seen_at IS NULL RETURNING 1`,
    [id, uid],
  );
  return rows.length > 0;
}

const ACTIONS_SHOWN = 50;
const LIST_LIMIT = 100;

export async function loadModerationQueue(q: Queryable): Promise<ModerationQueue> {
  const reports = await q.query<{
    game_key: string;
    game_name: string | null;
    owner_uid: string;
    owner_name: string | null;
    hidden: boolean;
    reports: number;
    reasons: string[];
    first_at: string;
  }>(
    `SELECT g.game_key, g.fields ->> 'gameName' AS game_name, g.uid AS owner_uid,
            u.display_name AS owner_name, g.hidden_at IS NOT NULL AS hidden,
            count(*)::int AS reports,
            array_remove(array_agg(r.reason ORDER BY r.created_at), '') AS reasons,
            to_char(min(r.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS first_at
       FROM moderation_reports r
       JOIN games g ON g.game_key = r.game_key
       LEFT JOIN users u ON u.uid = g.uid
      WHERE r.closed_at IS NULL
      GROUP BY g.game_key, g.fields, g.uid, u.display_name, g.hidden_at
      ORDER BY count(*) DESC, min(r.created_at)
      LIMIT ${LIST_LIMIT}`,
  );
  const hidden = await q.query<{ game_key: string; game_name: string | null; hidden_at: string }>(
    `SELECT game_key, fields ->> 'gameName' AS game_name,
            to_char(hidden_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS hidden_at
       FROM games WHERE hidden_at IS NOT NULL ORDER BY games.hidden_at DESC LIMIT ${LIST_LIMIT}`,
  );
  const actions = await q.query<{
    at: string;
    admin_uid: string;
    admin_name: string | null;
    action: Action;
    game_key: string;
    game_name: string;
    owner_uid: string;
  }>(
    `SELECT to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at, a.admin_uid,
            u.display_name AS admin_name, a.action, a.game_key, a.game_name, a.owner_uid
       FROM moderation_actions a LEFT JOIN users u ON u.uid = a.admin_uid
      ORDER BY a.id DESC LIMIT ${ACTIONS_SHOWN}`,
  );
  return {
    reports: reports.map((r) => ({
      gameKey: r.game_key,
      gameName: r.game_name ?? '',
      ownerUid: r.owner_uid,
      ownerName: r.owner_name,
      hidden: r.hidden,
      reports: r.reports,
      reasons: r.reasons,
      firstReportedAt: r.first_at,
    })),
    hidden: hidden.map((h) => ({
      gameKey: h.game_key,
      gameName: h.game_name ?? '',
      hiddenAt: h.hidden_at,
    })),
    actions: actions.map((a) => ({
      at: a.at,
      adminUid: a.admin_uid,
      adminName: a.admin_name,
      action: a.action,
      gameKey: a.game_key,
      gameName: a.game_name,
      ownerUid: a.owner_uid,
    })),
  };
}
