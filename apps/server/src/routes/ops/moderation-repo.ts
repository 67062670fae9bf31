import type { ModerationNotice, ModerationQueue, ModerationTarget } from '@sagan/shared/moderation';
import type { Queryable } from '../../db/db.ts';

/** A time column as the queue shows it: ISO 8601 in UTC, to the second. */
const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

type Action = 'hide' | 'unhide' | 'dismiss' | 'block' | 'unblock';

const NOTICES_SHOWN = 20;

interface Logged {
  target: ModerationTarget;
  targetKey: string;
  gameKey: string | null;
  gameName: string;
  ownerUid: string | null;
  detail: string;
  /** Whether the owner is told (a notice until they dismiss it). */
  tells: boolean;
}

/** Every operator action goes in the log, with who and when. */
async function logAction(q: Queryable, adminUid: string, action: Action, a: Logged) {
  await q.query(
    `INSERT INTO moderation_actions
       (admin_uid, action, target, target_key, game_key, game_name, owner_uid, detail, owner_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9 THEN NULL ELSE now() END)`,
    [adminUid, action, a.target, a.targetKey, a.gameKey, a.gameName, a.ownerUid, a.detail, a.tells],
  );
}

/**
 * Sets or clears hidden_at of one row, locked; answers whether it was hidden before, or null
 * when there is no such row.
 */
async function setHidden(
  q: Queryable,
  table: 'games' | 'game_comments' | 'tags',
  where: string,
  key: string,
  action: Action,
): Promise<boolean | null> {
  const [row] = await q.query<{ hidden: boolean }>(
    `SELECT hidden_at IS NOT NULL AS hidden FROM ${table} WHERE ${where} = $1 FOR UPDATE`,
    [key],
  );
  if (!row) return null;
  if (action === 'hide') {
    await q.query(
      `UPDATE ${table} SET hidden_at = coalesce(hidden_at, now()) WHERE ${where} = $1`,
      [key],
    );
  } else if (action === 'unhide') {
    await q.query(`UPDATE ${table} SET hidden_at = NULL WHERE ${where} = $1`, [key]);
  }
  return row.hidden;
}

/** Hiding or restoring tells the owner, unless it changes nothing; a dismissal never does. */
const tellsOwner = (action: Action, wasHidden: boolean) =>
  (action === 'hide' && !wasHidden) || (action === 'unhide' && wasHidden);

/**
 * An operator's action on a game, logged with who and when: hide (and close its reports),
 * unhide, or dismiss its reports. Hiding or restoring is also a notice to the owner, unless it
 * changes nothing. Answers the game's owner (whose lists must follow); null for no such game.
 */
export async function moderate(
  q: Queryable,
  adminUid: string,
  gameKey: string,
  action: Action,
): Promise<string | null> {
  const [game] = await q.query<{ uid: string; name: string | null }>(
    `SELECT uid, fields ->> 'gameName' AS name FROM games WHERE game_key = $1`,
    [gameKey],
  );
  const wasHidden = game ? await setHidden(q, 'games', 'game_key', gameKey, action) : null;
  if (!game || wasHidden === null) return null;
  if (action !== 'unhide') {
    await q.query(
      `UPDATE moderation_reports SET closed_at = now() WHERE game_key = $1 AND closed_at IS NULL`,
      [gameKey],
    );
  }
  await logAction(q, adminUid, action, {
    target: 'game',
    targetKey: gameKey,
    gameKey,
    gameName: game.name ?? '',
    ownerUid: game.uid,
    detail: '',
    tells: tellsOwner(action, wasHidden),
  });
  return game.uid;
}

/**
 * The same for a comment: hidden from the game's public topic and pages, still shown (marked)
 * to its scorers; its author, the game's owner, is told. Answers the comment's game and owner;
 * null for no such comment.
 */
export async function moderateComment(
  q: Queryable,
  adminUid: string,
  commentId: string,
  action: Action,
): Promise<{ gameKey: string; ownerUid: string } | null> {
  const [c] = await q.query<{
    game_key: string;
    uid: string;
    name: string | null;
    text: string | null;
  }>(
    `SELECT c.game_key, g.uid, g.fields ->> 'gameName' AS name, c.comment ->> 'gameComment' AS text
       FROM game_comments c JOIN games g ON g.game_key = c.game_key WHERE c.id = $1`,
    [commentId],
  );
  const wasHidden = c ? await setHidden(q, 'game_comments', 'id', commentId, action) : null;
  if (!c || wasHidden === null) return null;
  if (action !== 'unhide') {
    await q.query(
      `UPDATE moderation_comment_reports SET closed_at = now()
        WHERE comment_id = $1 AND closed_at IS NULL`,
      [commentId],
    );
  }
  await logAction(q, adminUid, action, {
    target: 'comment',
    targetKey: commentId,
    gameKey: c.game_key,
    gameName: c.name ?? '',
    ownerUid: c.uid,
    detail: c.text ?? '',
    tells: tellsOwner(action, wasHidden),
  });
  return { gameKey: c.game_key, ownerUid: c.uid };
}

/**
 * The same for a tag: missing from every list, count and page, and from its games' pages. A
 * tag is nobody's, so nobody is told; its games' scorers still see it on their games, marked.
 * Answers the games that carry it; null for no such tag.
 */
export async function moderateTag(
  q: Queryable,
  adminUid: string,
  tagKey: string,
  action: Exclude<Action, 'dismiss'>,
): Promise<string[] | null> {
  const [tag] = await q.query<{ name: string }>('SELECT name FROM tags WHERE tag_key = $1', [
    tagKey,
  ]);
  const wasHidden = tag ? await setHidden(q, 'tags', 'tag_key', tagKey, action) : null;
  if (!tag || wasHidden === null) return null;
  await logAction(q, adminUid, action, {
    target: 'tag',
    targetKey: tagKey,
    gameKey: null,
    gameName: '',
    ownerUid: null,
    detail: tag.name,
    tells: false,
  });
  const games = await q.query<{ game_key: string }>(
    'SELECT game_key FROM game_tags WHERE tag_key = $1',
    [tagKey],
  );
  return games.map((g) => g.game_key);
}

/**
 * An operator blocks a person from public games, or unblocks them: logged, and the person is
 * told unless it changes nothing. Answers their games (whose every audience must follow); null
 * for no such person.
 */
export async function moderateUser(
  q: Queryable,
  adminUid: string,
  uid: string,
  action: 'block' | 'unblock',
): Promise<string[] | null> {
  const [user] = await q.query<{ blocked: boolean; name: string | null }>(
    'SELECT blocked_at IS NOT NULL AS blocked, display_name AS name FROM users WHERE uid = $1 FOR UPDATE',
    [uid],
  );
  if (!user) return null;
  await q.query(
    `UPDATE users SET blocked_at = CASE WHEN $2 THEN coalesce(blocked_at, now()) END WHERE uid = $1`,
    [uid, action === 'block'],
  );
  if (action === 'block') {
    // Their games' reports are answered: the games are gone from the public.
    await q.query(
      `UPDATE moderation_reports SET closed_at = now()
        WHERE closed_at IS NULL AND game_key IN (SELECT game_key FROM games WHERE uid = $1)`,
      [uid],
    );
  }
  await logAction(q, adminUid, action, {
    target: 'user',
    targetKey: uid,
    gameKey: null,
    gameName: '',
    ownerUid: uid,
    detail: user.name ?? '',
    tells: (action === 'block') !== user.blocked,
  });
  const games = await q.query<{ game_key: string }>('SELECT game_key FROM games WHERE uid = $1', [
    uid,
  ]);
  return games.map((g) => g.game_key);
}

/** The owner's notices not dismissed yet, newest first (user:{uid}:notices). */
export async function loadNotices(q: Queryable, uid: string): Promise<ModerationNotice[]> {
  const rows = await q.query<{
    id: number | string;
    action: Action;
    target: ModerationTarget;
    game_key: string | null;
    game_name: string;
    detail: string;
    at: string;
  }>(
    `SELECT id, action, target, game_key, game_name, detail,
            ${iso('at')} AS at
       FROM moderation_actions WHERE owner_uid = $1 AND owner_seen_at IS NULL
      ORDER BY id DESC LIMIT ${NOTICES_SHOWN}`,
    [uid],
  );
  const kinds = {
    hide: 'hidden',
    unhide: 'restored',
    block: 'blocked',
    unblock: 'unblocked',
  } as const satisfies Partial<Record<Action, ModerationNotice['kind']>>;
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.action === 'dismiss' ? 'restored' : kinds[r.action],
    gameKey: r.game_key ?? '',
    gameName: r.game_name,
    ...(r.target === 'comment' ? { comment: r.detail } : {}),
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

/** What the queue says of open reports (alias r) grouped by what they are about. */
const REPORTED = `count(*)::int AS reports,
            array_remove(array_agg(r.reason ORDER BY r.created_at), '') AS reasons,
            ${iso('min(r.created_at)')} AS first_at`;
interface ReportedRow {
  hidden: boolean;
  reports: number;
  reasons: string[];
  first_at: string;
}
const reported = (r: ReportedRow) => ({
  hidden: r.hidden,
  reports: r.reports,
  reasons: r.reasons,
  firstReportedAt: r.first_at,
});

/** A comment in the queue, reported or hidden, with its game. */
interface CommentRow {
  id: number | string;
  text: string | null;
  game_key: string;
  game_name: string | null;
}
const comment = (c: CommentRow) => ({
  commentId: String(c.id),
  text: c.text ?? '',
  gameKey: c.game_key,
  gameName: c.game_name ?? '',
});

export async function loadModerationQueue(q: Queryable): Promise<ModerationQueue> {
  const reports = await q.query<
    {
      game_key: string;
      game_name: string | null;
      owner_uid: string;
      owner_name: string | null;
    } & ReportedRow
  >(
    `SELECT g.game_key, g.fields ->> 'gameName' AS game_name, g.uid AS owner_uid,
            u.display_name AS owner_name, g.hidden_at IS NOT NULL AS hidden, ${REPORTED}
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
            ${iso('hidden_at')} AS hidden_at
       FROM games WHERE hidden_at IS NOT NULL ORDER BY games.hidden_at DESC LIMIT ${LIST_LIMIT}`,
  );
  const reportedComments = await q.query<CommentRow & { owner_name: string | null } & ReportedRow>(
    `SELECT c.id, c.comment ->> 'gameComment' AS text, c.game_key,
            g.fields ->> 'gameName' AS game_name, u.display_name AS owner_name,
            c.hidden_at IS NOT NULL AS hidden, ${REPORTED}
       FROM moderation_comment_reports r
       JOIN game_comments c ON c.id = r.comment_id
       JOIN games g ON g.game_key = c.game_key
       LEFT JOIN users u ON u.uid = g.uid
      WHERE r.closed_at IS NULL
      GROUP BY c.id, c.comment, c.game_key, g.fields, u.display_name, c.hidden_at
      ORDER BY count(*) DESC, min(r.created_at)
      LIMIT ${LIST_LIMIT}`,
  );
  const hiddenComments = await q.query<CommentRow & { hidden_at: string }>(
    `SELECT c.id, c.comment ->> 'gameComment' AS text, c.game_key,
            g.fields ->> 'gameName' AS game_name,
            ${iso('c.hidden_at')} AS hidden_at
       FROM game_comments c JOIN games g ON g.game_key = c.game_key
      WHERE c.hidden_at IS NOT NULL ORDER BY c.hidden_at DESC LIMIT ${LIST_LIMIT}`,
  );
  const hiddenTags = await q.query<{ tag_key: string; name: string; hidden_at: string }>(
    `SELECT tag_key, name,
            ${iso('hidden_at')} AS hidden_at
       FROM tags WHERE hidden_at IS NOT NULL ORDER BY tags.hidden_at DESC LIMIT ${LIST_LIMIT}`,
  );
  const blocked = await q.query<{ uid: string; name: string | null; blocked_at: string }>(
    `SELECT uid, display_name AS name,
            ${iso('blocked_at')} AS blocked_at
       FROM users WHERE blocked_at IS NOT NULL ORDER BY users.blocked_at DESC LIMIT ${LIST_LIMIT}`,
  );
  const actions = await q.query<{
    at: string;
    admin_uid: string;
    admin_name: string | null;
    action: Action;
    target: ModerationTarget;
    target_key: string;
    game_key: string | null;
    game_name: string;
    detail: string;
    owner_uid: string | null;
  }>(
    `SELECT ${iso('a.at')} AS at, a.admin_uid,
            u.display_name AS admin_name, a.action, a.target, a.target_key, a.game_key,
            a.game_name, a.detail, a.owner_uid
       FROM moderation_actions a LEFT JOIN users u ON u.uid = a.admin_uid
      ORDER BY a.id DESC LIMIT ${ACTIONS_SHOWN}`,
  );
  return {
    reports: reports.map((r) => ({
      gameKey: r.game_key,
      gameName: r.game_name ?? '',
      ownerUid: r.owner_uid,
      ownerName: r.owner_name,
      ...reported(r),
    })),
    hidden: hidden.map((h) => ({
      gameKey: h.game_key,
      gameName: h.game_name ?? '',
      hiddenAt: h.hidden_at,
    })),
    reportedComments: reportedComments.map((r) => ({
      ...comment(r),
      ownerName: r.owner_name,
      ...reported(r),
    })),
    hiddenComments: hiddenComments.map((c) => ({ ...comment(c), hiddenAt: c.hidden_at })),
    hiddenTags: hiddenTags.map((t) => ({ tagKey: t.tag_key, name: t.name, hiddenAt: t.hidden_at })),
    blocked: blocked.map((b) => ({ uid: b.uid, name: b.name, blockedAt: b.blocked_at })),
    actions: actions.map((a) => ({
      at: a.at,
      adminUid: a.admin_uid,
      adminName: a.admin_name,
      action: a.action,
      target: a.target,
      targetKey: a.target_key,
      gameKey: a.game_key ?? '',
      gameName: a.game_name,
      detail: a.detail,
      ownerUid: a.owner_uid,
    })),
  };
}

/** Where each kind of report is kept: one row per reported thing and person. */
const REPORTS = {
  game: { table: 'moderation_reports', column: 'game_key' },
  comment: { table: 'moderation_comment_reports', column: 'comment_id' },
} as const;

export type Reported = keyof typeof REPORTS;

/**
 * A person's report of a game (by its key) or a comment (by its id), once per person; false
 * when they had reported it already.
 */
export async function addReport(
  q: Queryable,
  what: Reported,
  key: string,
  uid: string,
  reason: string,
): Promise<boolean> {
  const { table, column } = REPORTS[what];
  const added = await q.query(
    `INSERT INTO ${table} (${column}, uid, reason) VALUES ($1, $2, $3)
     ON CONFLICT (${column}, uid) DO NOTHING RETURNING 1`,
    [key, uid, reason],
  );
  return added.length > 0;
}
