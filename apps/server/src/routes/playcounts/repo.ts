import {
  MAX_PLAY_COUNT_ROSTER,
  type PlayCountGame,
  type PlayCountGameInput,
  type PlayCountListItem,
  type PlayCountPatch,
  type PlayCountRosterEntry,
  type Snap,
} from '@sagan/shared/playcount';
import type { NewPlayCount, SharedPlayCount } from '@sagan/shared/playcount-sideline';
import { seasonTotals, type Season } from '@sagan/shared/playcount-season';
import { applyPrivacy, defaultPrivacy, type PublicPrivacy } from '@sagan/shared/teamsheet-privacy';
import type { Queryable } from '../../db/db.ts';
import { newKey } from '../../lib/keys.ts';
import {
  ownerPhotoPath,
  parsePhotoRef,
  playCountImageUrl,
  playCountPhotoId,
  sharedPhotoPath,
} from '../../photos.ts';

interface GameRow {
  game_key: string;
  uid: string;
  game: Pick<PlayCountGame, 'gameName' | 'gameDate' | 'roster' | 'snaps'>;
  archived: boolean;
  min_plays: number | null;
  updated_at: Date | string;
  team_key: string | null;
  players_per_snap: number | null;
  share_key: string | null;
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
    teamKey: row.team_key,
    playersPerSnap: row.players_per_snap === null ? null : Number(row.players_per_snap),
    shareKey: row.share_key,
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

/**
 * A new count of a team sheet uid owns: its roster copied from the sheet (key, jersey, name,
 * photo), nobody on the field yet. Null when uid owns no such team.
 */
export async function createFromTeam(
  q: Queryable,
  uid: string,
  gameKey: string,
  input: NewPlayCount,
): Promise<PlayCountGame | null> {
  const team = await q.query<{ team_key: string }>(
    'SELECT team_key FROM teams WHERE team_key = $1 AND uid = $2',
    [input.teamKey, uid],
  );
  if (!team[0]) return null;
  const players = await q.query<{
    player_key: string;
    jersey: string;
    player_name: string;
    image_url: string;
    photo_id: string | null;
  }>(
    `SELECT player_key, jersey, player_name, image_url, photo_id
       FROM players WHERE team_key = $1 LIMIT ${MAX_PLAY_COUNT_ROSTER}`,
    [input.teamKey],
  );
  const roster: PlayCountRosterEntry[] = players
    .map((p) => {
      // The sheet's own photo URL is stored: it is resolved against the live sheet on each
      // request, so a photo removed from the sheet is gone from the count too.
      const imageURL = p.photo_id
        ? ownerPhotoPath(input.teamKey, p.player_key, p.photo_id)
        : p.image_url;
      return {
        key: p.player_key,
        jersey: p.jersey,
        playerName: p.player_name,
        playCount: 0,
        location: 2 as const,
        ...(imageURL ? { imageURL } : {}),
      };
    })
    .sort(
      (a, b) =>
        a.jersey.localeCompare(b.jersey, undefined, { numeric: true }) ||
        a.playerName.localeCompare(b.playerName),
    );
  const body = { gameName: input.gameName, gameDate: input.gameDate, roster, snaps: [] };
  const rows = await q.query<GameRow>(
    `INSERT INTO play_count_games (game_key, uid, game, min_plays, team_key, players_per_snap)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6) RETURNING *`,
    [
      gameKey,
      uid,
      JSON.stringify(body),
      input.minPlays ?? null,
      input.teamKey,
      input.playersPerSnap ?? null,
    ],
  );
  return toGame(rows[0]!);
}

/** The stored game of uid, locked for a read-modify-write; null when uid does not own it. */
export async function lockOwnGame(
  q: Queryable,
  uid: string,
  gameKey: string,
): Promise<{ roster: PlayCountRosterEntry[]; snaps: Snap[]; shareKey: string | null } | null> {
  const rows = await q.query<Pick<GameRow, 'game' | 'share_key'>>(
    'SELECT game, share_key FROM play_count_games WHERE game_key = $1 AND uid = $2 FOR UPDATE',
    [gameKey, uid],
  );
  const row = rows[0];
  return row ? { roster: row.game.roster, snaps: row.game.snaps, shareKey: row.share_key } : null;
}

/** Replaces a locked game's roster and snaps (its name and date stay). */
export async function writeRosterAndSnaps(
  q: Queryable,
  gameKey: string,
  roster: PlayCountRosterEntry[],
  snaps: Snap[],
): Promise<void> {
  await q.query(
    `UPDATE play_count_games
        SET game = jsonb_set(jsonb_set(game, '{roster}', $2::jsonb), '{snaps}', $3::jsonb),
            updated_at = now()
      WHERE game_key = $1`,
    [gameKey, JSON.stringify(roster), JSON.stringify(snaps)],
  );
}

/**
 * Sets (a new unguessable key, or the one it has) or clears the shared link of uid's game.
 * Returns the key before and after; null when uid does not own the game.
 */
export async function setShareKey(
  q: Queryable,
  uid: string,
  gameKey: string,
  share: boolean,
): Promise<{ before: string | null; after: string | null } | null> {
  const rows = await q.query<{ before: string | null; after: string | null }>(
    `UPDATE play_count_games g
        SET share_key = CASE WHEN $3::boolean THEN coalesce(g.share_key, $4) ELSE NULL END
       FROM (SELECT share_key FROM play_count_games WHERE game_key = $1 FOR UPDATE) old
      WHERE g.game_key = $1 AND g.uid = $2
      RETURNING old.share_key AS before, g.share_key AS after`,
    [gameKey, uid, share, newKey()],
  );
  return rows[0] ?? null;
}

interface SharedRow extends GameRow {
  team_name: string | null;
  initials_only: boolean | null;
  hide_photos: boolean | null;
}

async function findSharedRow(q: Queryable, shareKey: string): Promise<SharedRow | null> {
  const rows = await q.query<SharedRow>(
    `SELECT g.*, t.team_name, t.public_initials_only AS initials_only,
            t.public_hide_photos AS hide_photos
       FROM play_count_games g LEFT JOIN teams t ON t.team_key = g.team_key
      WHERE g.share_key = $1`,
    [shareKey],
  );
  return rows[0] ?? null;
}

const privacyOf = (row: SharedRow): PublicPrivacy => ({
  initialsOnly: row.initials_only ?? defaultPrivacy.initialsOnly,
  hidePhotos: row.hide_photos ?? defaultPrivacy.hidePhotos,
  // A play count carries no notes.
  hideNotes: true,
});

/**
 * What a shared link shows: the count with its team sheet's privacy option applied (a phone
 * app's count has no sheet, so none), our photos named through the link. Null once revoked.
 */
export async function findShared(q: Queryable, shareKey: string): Promise<SharedPlayCount | null> {
  const row = await findSharedRow(q, shareKey);
  if (!row) return null;
  const roster = applyPrivacy(
    row.game.roster.map((e) => ({
      key: e.key,
      jersey: e.jersey,
      playerName: e.playerName,
      playCount: e.playCount,
      location: e.location,
      imageURL: parsePhotoRef(e.imageURL) ? sharedPhotoPath(shareKey, e.key) : (e.imageURL ?? ''),
    })),
    privacyOf(row),
  );
  return {
    gameName: row.game.gameName,
    gameDate: row.game.gameDate,
    teamName: row.team_name,
    minPlays: row.min_plays === null ? null : Number(row.min_plays),
    playersPerSnap: row.players_per_snap === null ? null : Number(row.players_per_snap),
    roster,
    snaps: row.game.snaps.map((s) => ({ quarter: s.quarter, groupName: s.groupName })),
  };
}

/** The photo a shared link may show for a player: none while the sheet hides photos. */
export async function sharedPhotoId(
  q: Queryable,
  shareKey: string,
  playerKey: string,
): Promise<string | null> {
  const row = await findSharedRow(q, shareKey);
  if (!row || privacyOf(row).hidePhotos) return null;
  return playCountPhotoId(q, row.uid, row.game_key, playerKey);
}

/** A team's play counts (uid's), oldest first, for the season view; null when not uid's team. */
export async function seasonOf(q: Queryable, uid: string, teamKey: string): Promise<Season | null> {
  const team = await q.query<{ team_name: string }>(
    'SELECT team_name FROM teams WHERE team_key = $1 AND uid = $2',
    [teamKey, uid],
  );
  if (!team[0]) return null;
  const rows = await q.query<GameRow>(
    `SELECT * FROM play_count_games WHERE team_key = $1 AND uid = $2
      ORDER BY game->>'gameDate', created_at, game_key`,
    [teamKey, uid],
  );
  const games = rows.map((r) => ({
    gameKey: r.game_key,
    gameName: r.game.gameName,
    gameDate: r.game.gameDate,
    minPlays: r.min_plays === null ? null : Number(r.min_plays),
    roster: r.game.roster,
  }));
  return {
    teamKey,
    teamName: team[0].team_name,
    games: games.map(({ roster: _roster, ...g }) => g),
    players: seasonTotals(games),
  };
}
