import type {
  PlayCountGame,
  PlayCountGameInput,
  PlayCountListItem,
  PlayCountPatch,
} from '@sagan/shared/playcount';
import type { Queryable } from '../../db/db.ts';
import { parsePhotoRef, playCountImageUrl } from '../../photos.ts';

interface GameRow {
  game_key: string;
  uid: string;
  game: Pick<PlayCountGame, 'gameName' | 'gameDate' | 'roster' | 'snaps'>;
  archived: boolean;
  min_plays: number | null;
  updated_at: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function toGame(row: GameRow): PlayCountGame {
  return {
    gameKey: row.game_key,
    gameName: row.game.gameName,
    gameDate: row.game.gameDate,
    archived: row.archived,
    minPlays: row.min_plays === null ? null : Number(row.min_plays),
    // Our photos are reached through the play count itself, checked on each request.
    roster: row.game.roster.map((e) =>
      e.imageURL === undefined
        ? e
        : { ...e, imageURL: playCountImageUrl(row.game_key, e.key, e.imageURL) ?? '' },
    ),
    snaps: row.game.snaps,
    updatedAt: iso(row.updated_at),
  };
}

export async function ownerOf(q: Queryable, gameKey: string): Promise<string | null> {
  const rows = await q.query<{ uid: string }>(
    'SELECT uid FROM play_count_games WHERE game_key = $1',
    [gameKey],
  );
  return rows[0]?.uid ?? null;
}

/** The game if it exists and belongs to uid; otherwise null (the caller cannot tell which). */
export async function findOwnGame(
  q: Queryable,
  uid: string,
  gameKey: string,
): Promise<PlayCountGame | null> {
  const rows = await q.query<GameRow>(
    'SELECT * FROM play_count_games WHERE game_key = $1 AND uid = $2',
    [gameKey, uid],
  );
  return rows[0] ? toGame(rows[0]) : null;
}

export async function findGame(q: Queryable, gameKey: string): Promise<PlayCountGame | null> {
  const rows = await q.query<GameRow>('SELECT * FROM play_count_games WHERE game_key = $1', [
    gameKey,
  ]);
  return rows[0] ? toGame(rows[0]) : null;
}

// SPEC §2 list: the newest game first; archiving it or setting a minimum does not reorder.
export async function listGames(q: Queryable, uid: string): Promise<PlayCountListItem[]> {
  const rows = await q.query<GameRow>(
    `SELECT game_key, uid, jsonb_build_object('gameName', game->'gameName',
              'gameDate', game->'gameDate') AS game, archived, min_plays, updated_at
       FROM play_count_games WHERE uid = $1
      ORDER BY created_at DESC, game->>'gameDate' DESC, game_key`,
    [uid],
  );
  return rows.map((r) => ({
    gameKey: r.game_key,
    gameName: r.game.gameName,
    gameDate: r.game.gameDate,
    archived: r.archived,
    updatedAt: iso(r.updated_at),
  }));
}

/**
 * Creates the game for uid, or replaces it if uid owns it, in one statement so two phones
 * racing for a new key cannot both win. Returns null when another user owns gameKey.
 *
 * `archived` and `minPlays` are the web's flags (DESIGN §6): a re-PUT may archive (true) but
 * never un-archives, because the phone re-sends its whole game with the schema's default
 * `archived: false` and must not silently restore what the coach archived (Restore is PATCH).
 * An omitted minPlays keeps the coach's minimum; null clears it.
 */
export async function putGame(
  q: Queryable,
  uid: string,
  gameKey: string,
  input: PlayCountGameInput,
): Promise<{ game: PlayCountGame; created: boolean } | null> {
  const body = {
    gameName: input.gameName,
    gameDate: input.gameDate,
    roster: await keepPhotoSources(q, uid, input.roster),
    snaps: input.snaps,
  };
  const rows = await q.query<GameRow & { created: boolean }>(
    `INSERT INTO play_count_games AS g (game_key, uid, game, archived, min_plays, updated_at)
     VALUES ($1, $2, $3::jsonb, $4, $5, now())
     ON CONFLICT (game_key) DO UPDATE SET
       game = EXCLUDED.game,
       archived = g.archived OR EXCLUDED.archived,
       min_plays = CASE WHEN $6::boolean THEN EXCLUDED.min_plays ELSE g.min_plays END,
       updated_at = now()
     WHERE g.uid = EXCLUDED.uid
     RETURNING g.*, (xmax = 0) AS created`,
    [
      gameKey,
      uid,
      JSON.stringify(body),
      input.archived,
      input.minPlays ?? null,
      input.minPlays !== undefined,
    ],
  );
  const row = rows[0];
  return row ? { game: toGame(row), created: row.created } : null;
}

/**
 * A client that read a game back sends our play-count photo URLs: each is replaced by the URL
 * it stood for in the stored game (of the same owner), so re-sending a game keeps its photos.
 */
async function keepPhotoSources(
  q: Queryable,
  uid: string,
  roster: PlayCountGameInput['roster'],
): Promise<PlayCountGameInput['roster']> {
  const refs = roster.map((e) => parsePhotoRef(e.imageURL));
  const games = new Set(refs.flatMap((r) => (r?.kind === 'playcount' ? [r.gameKey] : [])));
  if (!games.size) return roster;
  const stored = new Map<string, string>();
  for (const gameKey of games) {
    const rows = await q.query<{ key: string; url: string | null }>(
      `SELECT e->>'key' AS key, e->>'imageURL' AS url
         FROM play_count_games g, jsonb_array_elements(g.game->'roster') e
        WHERE g.game_key = $1 AND g.uid = $2`,
      [gameKey, uid],
    );
    for (const r of rows) stored.set(`${gameKey}/${r.key}`, r.url ?? '');
  }
  return roster.map((e, i) => {
    const ref = refs[i];
    if (ref?.kind !== 'playcount') return e;
    return { ...e, imageURL: stored.get(`${ref.gameKey}/${ref.playerKey}`) ?? '' };
  });
}

/** Applies the web's Archive/Restore and minimum plays; null when uid does not own it. */
export async function patchGame(
  q: Queryable,
  uid: string,
  gameKey: string,
  patch: PlayCountPatch,
): Promise<PlayCountGame | null> {
  const rows = await q.query<GameRow>(
    `UPDATE play_count_games SET
       archived = COALESCE($3, archived),
       min_plays = CASE WHEN $4::boolean THEN $5 ELSE min_plays END,
       updated_at = now()
     WHERE game_key = $1 AND uid = $2
     RETURNING *`,
    [gameKey, uid, patch.archived ?? null, patch.minPlays !== undefined, patch.minPlays ?? null],
  );
  return rows[0] ? toGame(rows[0]) : null;
}
