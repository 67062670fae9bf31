import type { FastifyInstance } from 'fastify';
import {
  defaultScoreboard,
  type Clock,
  type GameCommentInput,
  type ScoreboardPatch,
} from '@sagan/shared/scoreboard';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import type { Queryable } from '../../db/db.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';
import { findGame, tagFollowerTopics, updateOwnedGame } from './repo.ts';

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
