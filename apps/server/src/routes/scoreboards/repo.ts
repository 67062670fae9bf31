import type { FastifyInstance } from 'fastify';
import {
  defaultScoreboard,
  type GameCommentInput,
  type ScoreboardFields,
  type ScoreboardPatch,
} from '@sagan/shared/scoreboard';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import {
  RECENT_GAMES_LIMIT,
  TAG_LIST_LIMIT,
  type GameComment,
  type GameSummary,
  type GameTopic,
  type PublicScoreboard,
  type TagSummary,
} from '@sagan/shared/scoreboard-views';
import type { Clock } from '@sagan/shared/scoreboard';
import type { Queryable } from '../../db/db.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';

// Reads of the scoreboards feature: each realtime topic's whole state (DESIGN §4).

interface GameRow {
  game_key: string;
  fields: Partial<ScoreboardFields>;
  time_stamp: number | string;
}

export interface OwnedGame {
  uid: string;
  fields: ScoreboardFields;
}

const GAME_COLUMNS = 'g.game_key, g.fields, g.time_stamp';
/** Lists of cards are bounded so a busy user or tag never makes a huge frame. */
const LIST_LIMIT = 100;
const COMMENTS_LIMIT = 50;
const COMMENT_DEFAULTS = {
  homeTeamName: '',
  homeScore: 0,
  awayTeamName: '',
  awayScore: 0,
  imageURL: '',
};

/** Imported or older rows may lack fields; the defaults fill them in. */
function toPublic(row: GameRow): PublicScoreboard {
  return {
    ...defaultScoreboard,
    ...row.fields,
    gameKey: row.game_key,
    timeStamp: Number(row.time_stamp),
  };
}

function toSummary(row: GameRow): GameSummary {
  const g = toPublic(row);
  return {
    gameKey: g.gameKey,
    gameName: g.gameName,
    gamePeriod: g.gamePeriod,
    sportID: g.sportID,
    homeTeamName: g.homeTeamName,
    awayTeamName: g.awayTeamName,
    homeScore: g.homeScore,
    awayScore: g.awayScore,
    timeStamp: g.timeStamp,
  };
}

export async function findGame(q: Queryable, gameKey: string): Promise<OwnedGame | null> {
  const rows = await q.query<{ uid: string; fields: Partial<ScoreboardFields> }>(
    'SELECT uid, fields FROM games WHERE game_key = $1',
    [gameKey],
  );
  const row = rows[0];
  return row ? { uid: row.uid, fields: { ...defaultScoreboard, ...row.fields } } : null;
}

export async function loadGameTopic(q: Queryable, gameKey: string): Promise<GameTopic> {
  const games = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE g.game_key = $1`,
    [gameKey],
  );
  const game = games[0];
  if (!game) return null;
  const comments = await q.query<{
    id: number | string;
    comment: Partial<GameComment> & { gameComment: string; timeStamp: number };
  }>(
    `SELECT id, comment FROM game_comments WHERE game_key = $1 ORDER BY id DESC LIMIT ${COMMENTS_LIMIT}`,
    [gameKey],
  );
  const tags = await q.query<{ tag_key: string; name: string }>(
    `SELECT t.tag_key, t.name FROM game_tags gt JOIN tags t ON t.tag_key = gt.tag_key
     WHERE gt.game_key = $1 ORDER BY t.name_lower`,
    [gameKey],
  );
  return {
    top: toPublic(game),
    comments: comments.map((c) => ({ ...COMMENT_DEFAULTS, ...c.comment, id: String(c.id) })),
    tags: tags.map((t) => ({ key: t.tag_key, name: t.name })),
  };
}

export async function loadClock(q: Queryable, gameKey: string): Promise<Clock | null> {
  const rows = await q.query<{ clock_formatted: string | null; clock_seconds: number | null }>(
    'SELECT clock_formatted, clock_seconds FROM games WHERE game_key = $1',
    [gameKey],
  );
  const row = rows[0];
  if (!row) return null;
  return { formattedTime: row.clock_formatted ?? '', seconds: row.clock_seconds ?? 0 };
}

/** SPEC §9: the 10 most recent games by timeStamp. */
export async function loadRecentGames(q: Queryable): Promise<GameSummary[]> {
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g ORDER BY g.time_stamp DESC, g.game_key LIMIT ${RECENT_GAMES_LIMIT}`,
  );
  return rows.map(toSummary);
}

export async function loadUserGames(q: Queryable, uid: string): Promise<GameSummary[]> {
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE g.uid = $1
     ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [uid],
  );
  return rows.map(toSummary);
}

export async function loadFavorites(q: Queryable, uid: string) {
  const rows = await q.query<GameRow & { game_name: string }>(
    `SELECT ${GAME_COLUMNS}, f.game_name FROM favorite_scoreboards f
     JOIN games g ON g.game_key = f.game_key
     WHERE f.uid = $1 ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [uid],
  );
  return rows.map((r) => ({ gameKey: r.game_key, gameName: r.game_name, game: toSummary(r) }));
}

const TAG_SELECT = `SELECT t.tag_key, t.name, t.server_time_stamp,
  (SELECT count(*) FROM game_tags gt WHERE gt.tag_key = t.tag_key)::int AS game_count
  FROM tags t`;

interface TagRow {
  tag_key: string;
  name: string;
  server_time_stamp: number | string;
  game_count: number;
}

function toTag(r: TagRow): TagSummary {
  return {
    key: r.tag_key,
    name: r.name,
    gameCount: Number(r.game_count),
    serverTimeStamp: Number(r.server_time_stamp),
  };
}

/** SPEC §2 dashboard tags; DESIGN §8: New Tags newest first, Popular Tags most games first. */
export async function loadTagLists(q: Queryable) {
  const used = `SELECT * FROM (${TAG_SELECT}) x WHERE game_count > 0`;
  const newTags = await q.query<TagRow>(
    `${used} ORDER BY server_time_stamp DESC, tag_key LIMIT ${TAG_LIST_LIMIT}`,
  );
  const popularTags = await q.query<TagRow>(
    `${used} ORDER BY game_count DESC, lower(name), tag_key LIMIT ${TAG_LIST_LIMIT}`,
  );
  return { newTags: newTags.map(toTag), popularTags: popularTags.map(toTag) };
}

export async function findTag(q: Queryable, tagID: string): Promise<TagSummary | null> {
  const rows = await q.query<TagRow>(`${TAG_SELECT} WHERE t.tag_key = $1`, [tagID]);
  return rows[0] ? toTag(rows[0]) : null;
}

export async function loadTagTopic(q: Queryable, tagID: string) {
  const tag = await findTag(q, tagID);
  if (!tag) return null;
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM game_tags gt JOIN games g ON g.game_key = gt.game_key
     WHERE gt.tag_key = $1 ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [tagID],
  );
  return { tag, games: rows.map(toSummary) };
}

export async function loadFollowedTags(q: Queryable, uid: string) {
  const tags = await q.query<TagRow>(
    `${TAG_SELECT} JOIN followed_tags f ON f.tag_key = t.tag_key WHERE f.uid = $1
     ORDER BY lower(t.name)`,
    [uid],
  );
  const games = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE g.game_key IN (
       SELECT gt.game_key FROM game_tags gt JOIN followed_tags f ON f.tag_key = gt.tag_key
       WHERE f.uid = $1)
     ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [uid],
  );
  return { tags: tags.map(toTag), games: games.map(toSummary) };
}

/**
 * A scorekeeper's patch in one statement (the hot path of every live game): merges the fields
 * when the game is the caller's, and returns the new public state with the topics that list
 * the game. null when nothing was updated (no such game, or another user's).
 */
async function updateOwnedGame(
  q: Queryable,
  uid: string,
  gameKey: string,
  patch: Partial<ScoreboardFields>,
  timeStamp: number,
): Promise<{ top: PublicScoreboard; audience: string[] } | null> {
  // Who sees the game in a per-user list or a tag page, so a change reaches them live: its
  // bookmarks, its tags, and followers of those tags.
  const rows = await q.query<
    GameRow & { bookmarkers: string[]; tag_keys: string[]; tag_followers: string[] }
  >(
    `WITH g AS (
       UPDATE games SET fields = $4::jsonb || fields || $3::jsonb,
                        time_stamp = GREATEST($5, time_stamp + 1)
       WHERE game_key = $1 AND uid = $2
       RETURNING game_key, fields, time_stamp
     )
     SELECT g.game_key, g.fields, g.time_stamp,
       ARRAY(SELECT uid FROM favorite_scoreboards WHERE game_key = $1) AS bookmarkers,
       ARRAY(SELECT tag_key FROM game_tags WHERE game_key = $1) AS tag_keys,
       ARRAY(SELECT DISTINCT f.uid FROM followed_tags f
             JOIN game_tags gt ON gt.tag_key = f.tag_key WHERE gt.game_key = $1) AS tag_followers
     FROM g`,
    [gameKey, uid, JSON.stringify(patch), JSON.stringify(defaultScoreboard), timeStamp],
  );
  const row = rows[0];
  if (!row) return null;
  const audience = [
    ...row.bookmarkers.map(favoritesTopic.name),
    ...row.tag_keys.map(tagTopic.name),
    ...row.tag_followers.map(followedTagsTopic.name),
  ];
  return { top: toPublic(row), audience };
}

/** Followers of these tags: their followedTags lists change when the tags' games change. */
async function tagFollowerTopics(q: Queryable, tagKeys: string[]): Promise<string[]> {
  if (!tagKeys.length) return [];
  const rows = await q.query<{ uid: string }>(
    'SELECT DISTINCT uid FROM followed_tags WHERE tag_key = ANY($1::text[])',
    [tagKeys],
  );
  return rows.map((r) => followedTagsTopic.name(r.uid));
}

// The scorekeeping writes (DESIGN §6). The API routes, the demo seed and the simulator all go
// through these, so what the phone app does and what the demo does are the same code path.

type App = Pick<FastifyInstance, 'db' | 'hub'>;

/** The game's owner may write; 404 for an unknown game, 403 for anyone else. */
async function ownedGame(q: Queryable, uid: string, gameKey: string) {
  const game = await findGame(q, gameKey);
  if (!game) throw notFound('No game with this key');
  if (game.uid !== uid) throw forbidden();
  return game;
}

export async function createGame(
  app: App,
  uid: string,
  initial: ScoreboardPatch = {},
): Promise<{ gameKey: string }> {
  const gameKey = newKey();
  await app.db.tx(async (q) => {
    await q.query('INSERT INTO games (game_key, uid, fields, time_stamp) VALUES ($1, $2, $3, $4)', [
      gameKey,
      uid,
      JSON.stringify({ ...defaultScoreboard, ...initial }),
      Date.now(),
    ]);
    await app.hub.changed(q, [recentGamesTopic.name(), myGamesTopic.name(uid)]);
  });
  return { gameKey };
}

export async function patchGame(
  app: App,
  uid: string,
  gameKey: string,
  patch: ScoreboardPatch,
): Promise<{ timeStamp: number }> {
  return app.db.tx(async (q) => {
    // timeStamp is the server's (DESIGN §6), and always moves forward so the recent order holds.
    const updated = await updateOwnedGame(q, uid, gameKey, patch, Date.now());
    if (!updated) {
      await ownedGame(q, uid, gameKey); // says 404 or 403
      throw forbidden();
    }
    if (patch.gameName !== undefined) {
      // SPEC §7 bookmarks carry the gameName; keep it the game's current name.
      await q.query('UPDATE favorite_scoreboards SET game_name = $2 WHERE game_key = $1', [
        gameKey,
        patch.gameName,
      ]);
    }
    const topic = gameTopic.name(gameKey);
    // Only the scoreboard itself changed: viewers' nodes build the new state from the old.
    await app.hub.changed(
      q,
      [topic, recentGamesTopic.name(), myGamesTopic.name(uid), ...updated.audience],
      { [topic]: { top: updated.top } },
    );
    return { timeStamp: updated.top.timeStamp };
  });
}

/** Clock ticks reach only the clock topic: they do not reorder the recent games list. */
export async function postClock(app: App, uid: string, gameKey: string, clock: Clock) {
  await app.db.tx(async (q) => {
    await ownedGame(q, uid, gameKey);
    await q.query('UPDATE games SET clock_formatted = $2, clock_seconds = $3 WHERE game_key = $1', [
      gameKey,
      clock.formattedTime,
      clock.seconds,
    ]);
    await app.hub.changed(q, [clockTopic.name(gameKey)]);
  });
}

export async function addComment(
  app: App,
  uid: string,
  gameKey: string,
  comment: GameCommentInput,
): Promise<{ id: string }> {
  return app.db.tx(async (q) => {
    await ownedGame(q, uid, gameKey);
    const rows = await q.query<{ id: number | string }>(
      'INSERT INTO game_comments (game_key, comment) VALUES ($1, $2) RETURNING id',
      [gameKey, JSON.stringify({ ...comment, timeStamp: Date.now() })],
    );
    await app.hub.changed(q, [gameTopic.name(gameKey)]);
    return { id: String(rows[0]?.id) };
  });
}

/**
 * Replaces the game's tags. A tag is created on first use, matched case-insensitively
 * (SPEC §3 Tag); its gameCount is counted from game_tags, so it always follows its games.
 */
export async function setTags(
  app: App,
  uid: string,
  gameKey: string,
  names: string[],
): Promise<{ tags: { key: string; name: string }[] }> {
  return app.db.tx(async (q) => {
    await ownedGame(q, uid, gameKey);
    const byLower = new Map<string, string>();
    for (const name of names)
      if (!byLower.has(name.toLowerCase())) byLower.set(name.toLowerCase(), name);
    const tags: { key: string; name: string }[] = [];
    for (const [lower, name] of byLower) {
      await q.query(
        `INSERT INTO tags (tag_key, name, name_lower, server_time_stamp) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name_lower) DO NOTHING`,
        [newKey(), name, lower, Date.now()],
      );
      const row = (
        await q.query<{ tag_key: string; name: string }>(
          'SELECT tag_key, name FROM tags WHERE name_lower = $1',
          [lower],
        )
      )[0];
      if (row) tags.push({ key: row.tag_key, name: row.name });
    }
    const before = await q.query<{ tag_key: string }>(
      'SELECT tag_key FROM game_tags WHERE game_key = $1',
      [gameKey],
    );
    const newKeys = tags.map((t) => t.key);
    await q.query('DELETE FROM game_tags WHERE game_key = $1 AND NOT (tag_key = ANY($2::text[]))', [
      gameKey,
      newKeys,
    ]);
    for (const key of newKeys) {
      await q.query(
        'INSERT INTO game_tags (game_key, tag_key) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [gameKey, key],
      );
    }
    const touched = [...new Set([...before.map((r) => r.tag_key), ...newKeys])];
    await app.hub.changed(q, [
      gameTopic.name(gameKey),
      tagsTopic.name(),
      ...touched.map((k) => tagTopic.name(k)),
      ...(await tagFollowerTopics(q, touched)),
    ]);
    return { tags };
  });
}

/** The messages viewers sent a game's scorekeeper, newest first. */
export async function listScorekeeperMessages(q: Queryable, gameKey: string) {
  const rows = await q.query<{
    id: number | string;
    display_name: string | null;
    message: string;
    created_at: Date | string;
  }>(
    `SELECT m.id, u.display_name, m.message, m.created_at
     FROM scorekeeper_messages m JOIN users u ON u.uid = m.from_uid
     WHERE m.game_key = $1 ORDER BY m.id DESC LIMIT 200`,
    [gameKey],
  );
  return rows.map((r) => ({
    id: String(r.id),
    fromName: r.display_name,
    message: r.message,
    createdAt: new Date(r.created_at).getTime(),
  }));
}

export async function insertScorekeeperMessage(
  q: Queryable,
  gameKey: string,
  fromUid: string,
  message: string,
): Promise<void> {
  await q.query(
    'INSERT INTO scorekeeper_messages (game_key, from_uid, message) VALUES ($1, $2, $3)',
    [gameKey, fromUid, message],
  );
}

/** A bookmark keeps the game's name (SPEC §7), refreshed when bookmarked again. */
export async function addFavoriteScoreboard(
  q: Queryable,
  uid: string,
  gameKey: string,
  gameName: string,
): Promise<void> {
  await q.query(
    `INSERT INTO favorite_scoreboards (uid, game_key, game_name) VALUES ($1, $2, $3)
     ON CONFLICT (uid, game_key) DO UPDATE SET game_name = EXCLUDED.game_name`,
    [uid, gameKey, gameName],
  );
}

export async function removeFavoriteScoreboard(
  q: Queryable,
  uid: string,
  gameKey: string,
): Promise<void> {
  await q.query('DELETE FROM favorite_scoreboards WHERE uid = $1 AND game_key = $2', [
    uid,
    gameKey,
  ]);
}

export async function followTag(q: Queryable, uid: string, tagKey: string): Promise<void> {
  await q.query('INSERT INTO followed_tags (uid, tag_key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    uid,
    tagKey,
  ]);
}

export async function unfollowTag(q: Queryable, uid: string, tagKey: string): Promise<void> {
  await q.query('DELETE FROM followed_tags WHERE uid = $1 AND tag_key = $2', [uid, tagKey]);
}

/**
 * Deletes one of the owner's games with its comments, tags, bookmarks and messages, and tells
 * every list that showed it. The demo simulator clears its finished games with it, so the demo
 * community never grows. false when the game is not the owner's (or is gone).
 */
export async function deleteOwnedGame(app: App, uid: string, gameKey: string): Promise<boolean> {
  return app.db.tx(async (q) => {
    const rows = await q.query<{ bookmarkers: string[]; tag_keys: string[] }>(
      `SELECT ARRAY(SELECT uid FROM favorite_scoreboards WHERE game_key = $1) AS bookmarkers,
              ARRAY(SELECT tag_key FROM game_tags WHERE game_key = $1) AS tag_keys
       FROM games WHERE game_key = $1 AND uid = $2`,
      [gameKey, uid],
    );
    const row = rows[0];
    if (!row) return false;
    const followers = await tagFollowerTopics(q, row.tag_keys);
    await q.query('DELETE FROM games WHERE game_key = $1', [gameKey]);
    await app.hub.changed(q, [
      gameTopic.name(gameKey),
      clockTopic.name(gameKey),
      recentGamesTopic.name(),
      myGamesTopic.name(uid),
      tagsTopic.name(),
      ...row.tag_keys.map(tagTopic.name),
      ...row.bookmarkers.map(favoritesTopic.name),
      ...followers,
    ]);
    return true;
  });
}
