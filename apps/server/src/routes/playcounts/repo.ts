import {
  MAX_PLAY_COUNT_ROSTER,
  MAX_SNAPS,
  type PlayCountGame,
  type PlayCountGameInput,
  type PlayCountListItem,
  type PlayCountPatch,
  type PlayCountRosterEntry,
  type Snap,
} from '@sagan/shared/playcount';
import {
  makeSnap,
  type NewPlayCount,
  type SharedPlayCount,
} from '@sagan/shared/playcount-sideline';
import {
  playersOf,
  rosterChange,
  snapRoster,
  undoRoster,
  type PlayCountEventBody,
} from '@sagan/shared/playcount-events';
import type { PlayCountDelta, RosterChange } from '@sagan/shared/playcount-delta';
import { playCountShareTopic } from '@sagan/shared/topics/playcount-share';
import { seasonTotals, type Season } from '@sagan/shared/playcount-season';
import { initialsOf, type PublicPrivacy } from '@sagan/shared/teamsheet-privacy';
import type { Queryable } from '../../db/db.ts';
import { newKey } from '../../lib/keys.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { AlreadyApplied, type EventOrigin, type Prior } from '../../lib/game-write.ts';
import { roleOn } from '../../lib/game-guard.ts';
import { appendEvents, type EventMeta } from './events.ts';
import {
  ownerPhotoPath,
  parsePhotoRef,
  playCountImageUrl,
  sharedPhotoPath,
} from '../photos/public.ts';

interface GameRow {
  game_key: string;
  uid: string;
  game: Pick<PlayCountGame, 'gameName' | 'gameDate' | 'roster'>;
  archived: boolean;
  min_plays: number | null;
  updated_at: Date | string;
  team_key: string | null;
  players_per_snap: number | null;
  share_key: string | null;
  snap_total: number;
  finished: boolean;
  privacy_initials_only: boolean;
  privacy_hide_photos: boolean;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The count's snaps: its snap events that nothing voided, in order. */
async function liveSnaps(q: Queryable, gameKey: string): Promise<Snap[]> {
  const rows = await q.query<{ snap: Snap }>(
    `SELECT body->'snap' AS snap FROM playcount_events
      WHERE game_key = $1 AND voided_by IS NULL AND body->>'kind' = 'snap' ORDER BY id`,
    [gameKey],
  );
  return rows.map((r) => r.snap);
}

/** Our photos are reached through the play count itself, checked on each request. */
const ownerRosterEntry = (gameKey: string, e: PlayCountRosterEntry): PlayCountRosterEntry =>
  e.imageURL === undefined
    ? e
    : { ...e, imageURL: playCountImageUrl(gameKey, e.key, e.imageURL) ?? '' };

/** The fields of a count other than its roster and snaps, as the owner sees them. */
const ownerFields = (row: GameRow) => ({
  gameKey: row.game_key,
  gameName: row.game.gameName,
  gameDate: row.game.gameDate,
  archived: row.archived,
  minPlays: row.min_plays === null ? null : Number(row.min_plays),
  updatedAt: iso(row.updated_at),
  teamKey: row.team_key,
  playersPerSnap: row.players_per_snap === null ? null : Number(row.players_per_snap),
  shareKey: row.share_key,
  finished: row.finished,
});

function toGame(row: GameRow, snaps: Snap[]): PlayCountGame {
  return {
    ...ownerFields(row),
    roster: row.game.roster.map((e) => ownerRosterEntry(row.game_key, e)),
    snaps,
  };
}

export async function ownerOf(q: Queryable, gameKey: string): Promise<string | null> {
  const rows = await q.query<{ uid: string }>(
    'SELECT uid FROM play_count_games WHERE game_key = $1',
    [gameKey],
  );
  return rows[0]?.uid ?? null;
}

/** The game if uid scores it (its owner or a co-scorer); otherwise null, as for a missing one. */
export async function findScoredGame(
  q: Queryable,
  uid: string,
  gameKey: string,
): Promise<PlayCountGame | null> {
  const rows = await q.query<GameRow>('SELECT * FROM play_count_games WHERE game_key = $1', [
    gameKey,
  ]);
  const row = rows[0];
  if (!row || !(await roleOn(q, 'playcount', gameKey, row.uid, uid))) return null;
  return toGame(row, await liveSnaps(q, gameKey));
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
  return rows[0] ? toGame(rows[0], await liveSnaps(q, gameKey)) : null;
}

export async function findGame(q: Queryable, gameKey: string): Promise<PlayCountGame | null> {
  const rows = await q.query<GameRow>('SELECT * FROM play_count_games WHERE game_key = $1', [
    gameKey,
  ]);
  return rows[0] ? toGame(rows[0], await liveSnaps(q, gameKey)) : null;
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

/** What a write changed, for the topics (deltas) and the answer. */
export interface CountChange {
  game: PlayCountGame | null;
  shareKey: string | null;
  privacy: PublicPrivacy;
  delta: PlayCountDelta;
}

/**
 * Creates the game for uid, or replaces it if uid owns it; null when another user owns
 * gameKey. Two phones racing for a new key cannot both create it: the insert takes the key or
 * finds the other's row, which is then locked like any existing one.
 *
 * The PUT is stored as its difference from the current state (DESIGN §10): one 'set' event
 * with the fields and players that changed; the snaps after the longest common prefix are
 * voided and the PUT's own appended as events that add no plays (its counts are absolute).
 *
 * `archived` and `minPlays` are the web's flags (DESIGN §6): a re-PUT may archive (true) but
 * never un-archives, because the phone re-sends its whole game with the schema's default
 * `archived: false` and must not silently restore what the coach archived (Restore is PATCH).
 * An omitted minPlays keeps the coach's minimum; null clears it.
 */
export async function putGame(
  q: Queryable,
  meta: EventMeta,
  gameKey: string,
  input: PlayCountGameInput,
): Promise<{
  game: PlayCountGame;
  created: boolean;
  change: CountChange;
  owner: string;
} | null> {
  const { uid } = meta;
  const inserted = await q.query<GameRow>(
    `INSERT INTO play_count_games (game_key, uid, game, archived, min_plays, finished)
     VALUES ($1, $2, $3::jsonb, $4, $5, $4)
     ON CONFLICT (game_key) DO NOTHING RETURNING *`,
    [
      gameKey,
      uid,
      JSON.stringify({ gameName: '', gameDate: '', roster: [] }),
      input.archived,
      input.minPlays ?? null,
    ],
  );
  const created = inserted.length > 0;
  const row = inserted[0] ?? (await lockRow(q, gameKey));
  if (!row) return null;
  // Player Counter counts by sending the whole count: its co-counters may (DESIGN §10), but
  // what is not counting (the name, the date, archiving, the minimum) stays the owner's.
  const role = await roleOn(q, 'playcount', gameKey, row.uid, uid);
  if (!role) return null;
  if (
    role === 'scorer' &&
    (input.gameName !== row.game.gameName ||
      input.gameDate !== row.game.gameDate ||
      (input.archived && !row.archived) ||
      (input.minPlays !== undefined &&
        input.minPlays !== (row.min_plays === null ? null : Number(row.min_plays))))
  ) {
    throw new HttpError(
      403,
      "Only the count's owner can rename it, change its date or minimum, or archive it",
    );
  }
  // Photos are kept as they stood in the owner's count, whoever sends it.
  const roster = await keepPhotoSources(q, row.uid, input.roster);
  const before = row.game;
  const stored = created ? [] : await liveSnapEvents(q, gameKey);
  let keep = 0;
  while (
    keep < stored.length &&
    keep < input.snaps.length &&
    sameSnap(stored[keep]!.snap, input.snaps[keep]!)
  ) {
    keep++;
  }
  const add = input.snaps.slice(keep);
  const change = rosterChange(before.roster, roster);
  const set: PlayCountEventBody = {
    kind: 'set',
    ...(before.gameName !== input.gameName ? { gameName: input.gameName } : {}),
    ...(before.gameDate !== input.gameDate ? { gameDate: input.gameDate } : {}),
    ...(change ? { roster: change } : {}),
  };
  const snapEvents = add.map((snap): PlayCountEventBody => ({
    kind: 'snap',
    snap,
    counted: false,
  }));
  const ids = await appendEvents(q, gameKey, meta, [set, ...snapEvents]);
  const voided = stored.slice(keep).map((e) => e.event_id);
  if (voided.length) {
    await q.query(
      `UPDATE playcount_events SET voided_by = $3
        WHERE game_key = $1 AND event_id = ANY($2::text[])`,
      [gameKey, voided, ids[0]],
    );
  }
  const rows = await q.query<GameRow>(
    `UPDATE play_count_games SET
       game = $2::jsonb,
       archived = archived OR $3,
       finished = finished OR $3,
       min_plays = CASE WHEN $4::boolean THEN $5 ELSE min_plays END,
       snap_total = $6,
       updated_at = now()
     WHERE game_key = $1
     RETURNING *`,
    [
      gameKey,
      JSON.stringify({ gameName: input.gameName, gameDate: input.gameDate, roster }),
      input.archived,
      input.minPlays !== undefined,
      input.minPlays ?? null,
      input.snaps.length,
    ],
  );
  const after = rows[0]!;
  const game = toGame(after, input.snaps);
  const delta: PlayCountDelta = {
    fields: { ...ownerFields(after) },
    ...(change ? { roster: change } : {}),
    ...(keep < stored.length || add.length ? { snaps: { keep, add } } : {}),
  };
  return {
    game,
    created,
    change: { game, shareKey: after.share_key, privacy: privacyOf(after), delta },
    owner: row.uid,
  };
}

/** The same snap, whatever the order of its keys (jsonb keeps its own). */
function sameSnap(a: Snap, b: Snap): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

async function lockRow(q: Queryable, gameKey: string): Promise<GameRow | null> {
  const rows = await q.query<GameRow>(
    'SELECT * FROM play_count_games WHERE game_key = $1 FOR UPDATE',
    [gameKey],
  );
  return rows[0] ?? null;
}

async function liveSnapEvents(
  q: Queryable,
  gameKey: string,
): Promise<Array<{ event_id: string; snap: Snap }>> {
  return q.query(
    `SELECT event_id, body->'snap' AS snap FROM playcount_events
      WHERE game_key = $1 AND voided_by IS NULL AND body->>'kind' = 'snap' ORDER BY id`,
    [gameKey],
  );
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

/**
 * Applies the web's Archive/Restore, minimum plays and Finish; archiving finishes the count
 * too. A change of finished is an event of the log. Null when uid does not own the game.
 */
export async function patchGame(
  q: Queryable,
  meta: EventMeta,
  gameKey: string,
  patch: PlayCountPatch,
): Promise<CountChange | null> {
  const finished = patch.finished ?? (patch.archived === true ? true : null);
  const rows = await q.query<GameRow & { was_finished: boolean }>(
    `UPDATE play_count_games g SET
       archived = COALESCE($3, g.archived),
       min_plays = CASE WHEN $4::boolean THEN $5 ELSE g.min_plays END,
       finished = COALESCE($6, g.finished),
       updated_at = now()
     FROM (SELECT finished FROM play_count_games WHERE game_key = $1 FOR UPDATE) old
     WHERE g.game_key = $1 AND g.uid = $2
     RETURNING g.*, old.finished AS was_finished`,
    [
      gameKey,
      meta.uid,
      patch.archived ?? null,
      patch.minPlays !== undefined,
      patch.minPlays ?? null,
      finished,
    ],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.finished !== row.was_finished) {
    await appendEvents(q, gameKey, meta, [{ kind: 'finish', finished: row.finished }]);
  }
  return {
    game: null,
    shareKey: row.share_key,
    privacy: privacyOf(row),
    delta: { fields: ownerFields(row) },
  };
}

/**
 * A new count of a team sheet (its owner's, which the route's guard checked): its roster copied
 * from the sheet (key, jersey, name, photo), nobody on the field yet. Null when there is no such
 * team.
 */
export async function createFromTeam(
  q: Queryable,
  meta: EventMeta,
  gameKey: string,
  input: NewPlayCount,
): Promise<PlayCountGame | null> {
  const { uid } = meta;
  const team = await q.query<{
    team_key: string;
    public_initials_only: boolean;
    public_hide_photos: boolean;
  }>('SELECT team_key, public_initials_only, public_hide_photos FROM teams WHERE team_key = $1', [
    input.teamKey,
  ]);
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
  const body = { gameName: input.gameName, gameDate: input.gameDate, roster };
  // The sheet's privacy is copied now and kept in step while the sheet exists (DESIGN §10).
  const rows = await q.query<GameRow>(
    `INSERT INTO play_count_games (game_key, uid, game, min_plays, team_key, players_per_snap,
                                   privacy_initials_only, privacy_hide_photos)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8) RETURNING *`,
    [
      gameKey,
      uid,
      JSON.stringify(body),
      input.minPlays ?? null,
      input.teamKey,
      input.playersPerSnap ?? null,
      team[0].public_initials_only,
      team[0].public_hide_photos,
    ],
  );
  await appendEvents(q, gameKey, { ...meta, uid }, [{ kind: 'baseline', ...body }]);
  return toGame(rows[0]!, []);
}

/** A count as a snap or an undo sees it: locked, with its two newest live snaps. */
export interface LockedCount extends GameRow {
  last_snaps: Array<{ event_id: string; snap: Snap }>;
}

/**
 * Locks a count for the write helper (lib/game-write.ts), in one statement with what the write
 * needs to read: the event under `eventId` (a replay's first answer) and the two newest live
 * snaps (a snap numbers after the last; an undo puts the one before it back on the field).
 */
export async function lockCount(
  q: Queryable,
  gameKey: string,
  eventId: string,
): Promise<(LockedCount & { prior: Prior | null }) | null> {
  const rows = await q.query<LockedCount & { prior: Prior | null }>(
    `SELECT g.*,
       (SELECT coalesce(json_agg(s), '[]') FROM (
          SELECT event_id, body->'snap' AS snap FROM playcount_events
           WHERE game_key = $1 AND voided_by IS NULL AND body->>'kind' = 'snap'
           ORDER BY id DESC LIMIT 2) s) AS last_snaps,
       (SELECT json_build_object('uid', e.uid, 'fingerprint', e.fingerprint, 'answer', e.answer)
          FROM playcount_events e WHERE e.game_key = $1 AND e.event_id = $2) AS prior
     FROM play_count_games g WHERE g.game_key = $1 FOR UPDATE`,
    [gameKey, eventId],
  );
  return rows[0] ?? null;
}

/**
 * Appends a snap's or an undo's event (with the answer a replay gets) and, when `counts` is
 * given, writes the counts and voids `voids`, all in one statement. Throws AlreadyApplied when
 * the event id was taken meanwhile (two requests raced under one key).
 */
async function appendCounted(
  q: Queryable,
  row: LockedCount,
  origin: EventOrigin,
  eventId: string,
  body: PlayCountEventBody,
  answer: unknown,
  counts: { roster: PlayCountRosterEntry[]; snapTotal: number; voids: string | null } | null,
): Promise<GameRow> {
  const rows = await q.query<{ appended: number } & GameRow>(
    `WITH e AS (
       INSERT INTO playcount_events (game_key, event_id, uid, device, base_seq, body,
                                     fingerprint, answer)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb)
       ON CONFLICT DO NOTHING RETURNING 1
     ), v AS (
       UPDATE playcount_events SET voided_by = $2
        WHERE game_key = $1 AND event_id = $9 AND EXISTS (SELECT 1 FROM e)
     ), u AS (
       UPDATE play_count_games
          SET game = jsonb_set(game, '{roster}', $10::jsonb), snap_total = $11,
              updated_at = now()
        WHERE game_key = $1 AND $12::boolean AND EXISTS (SELECT 1 FROM e)
        RETURNING *
     )
     SELECT n.appended, u.* FROM (SELECT count(*)::int AS appended FROM e) n LEFT JOIN u ON true`,
    [
      row.game_key,
      eventId,
      origin.uid,
      origin.device ?? null,
      origin.baseSeq ?? null,
      JSON.stringify(body),
      origin.fingerprint ?? null,
      JSON.stringify(answer),
      counts?.voids ?? null,
      JSON.stringify(counts?.roster ?? row.game.roster),
      counts?.snapTotal ?? row.snap_total,
      counts !== null,
    ],
  );
  const { appended, ...after } = rows[0]!;
  if (!appended) throw new AlreadyApplied();
  return counts ? after : row;
}

/** Only the fields of a roster change that the roster had before and the owner sees. */
const countsDelta = (
  row: GameRow,
  change: RosterChange | null,
  snaps: PlayCountDelta['snaps'],
) => ({
  fields: { updatedAt: iso(row.updated_at) },
  ...(change ? { roster: change } : {}),
  snaps,
});

/** A snap's or an undo's answer: the snap it made or took back, and how many are left. */
interface SnapAnswer {
  snapCount: number | null;
  snaps: number;
}

export type SnapOutcome =
  { answer: SnapAnswer; change: CountChange } | 'finished' | 'full' | 'unknown-player';

/** One snap of a locked count: one event row and the counts; the snaps before it are not read. */
export async function recordSnap(
  q: Queryable,
  row: LockedCount,
  origin: EventOrigin,
  eventId: string,
  input: { quarter: number; groupName: string; players: readonly string[] },
): Promise<SnapOutcome> {
  if (row.finished) return 'finished';
  if (row.snap_total >= MAX_SNAPS) return 'full';
  const players = new Set(input.players);
  const known = new Set(row.game.roster.map((p) => p.key));
  for (const key of players) if (!known.has(key)) return 'unknown-player';
  const [last] = row.last_snaps;
  const snap = makeSnap((last?.snap.snapCount ?? 0) + 1, { ...input, players });
  const roster = snapRoster(row.game.roster, players);
  const answer = { snapCount: snap.snapCount, snaps: row.snap_total + 1 };
  const after = await appendCounted(
    q,
    row,
    origin,
    eventId,
    { kind: 'snap', snap, counted: true },
    answer,
    { roster, snapTotal: row.snap_total + 1, voids: null },
  );
  const delta = countsDelta(after, rosterChange(row.game.roster, roster), {
    keep: row.snap_total,
    add: [snap],
  });
  return {
    answer,
    change: { game: null, shareKey: row.share_key, privacy: privacyOf(row), delta },
  };
}

export type UndoOutcome = { answer: SnapAnswer; change: CountChange | null } | 'finished';

/**
 * The sideline's undo: voids the last live snap (an undo event naming it; nothing is deleted),
 * takes back its plays and puts the snap before it back on the field. With no snap to undo,
 * a keyed undo still leaves an empty event, so its replay after a later snap changes nothing.
 */
export async function undoSnap(
  q: Queryable,
  row: LockedCount,
  origin: EventOrigin,
  eventId: string,
): Promise<UndoOutcome> {
  if (row.finished) return 'finished';
  const [last, previous] = row.last_snaps;
  if (!last) {
    const answer = { snapCount: null, snaps: 0 };
    if (origin.key) await appendCounted(q, row, origin, eventId, { kind: 'set' }, answer, null);
    return { answer, change: null };
  }
  const previousPlayers = previous ? playersOf(previous.snap) : null;
  const roster = undoRoster(row.game.roster, last.snap, previousPlayers);
  const total = Math.max(0, row.snap_total - 1);
  const answer = { snapCount: last.snap.snapCount, snaps: total };
  const after = await appendCounted(
    q,
    row,
    origin,
    eventId,
    { kind: 'undo', target: last.event_id, snap: last.snap, previous: previousPlayers },
    answer,
    { roster, snapTotal: total, voids: last.event_id },
  );
  const delta = countsDelta(after, rosterChange(row.game.roster, roster), { keep: total, add: [] });
  return {
    answer,
    change: { game: null, shareKey: row.share_key, privacy: privacyOf(row), delta },
  };
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
}

async function findSharedRow(q: Queryable, shareKey: string): Promise<SharedRow | null> {
  const rows = await q.query<SharedRow>(
    `SELECT g.*, t.team_name
       FROM play_count_games g LEFT JOIN teams t ON t.team_key = g.team_key
      WHERE g.share_key = $1`,
    [shareKey],
  );
  return rows[0] ?? null;
}

/** The count's own copy of its sheet's privacy (DESIGN §10): kept when the sheet is gone. */
const privacyOf = (row: GameRow): PublicPrivacy => ({
  initialsOnly: row.privacy_initials_only,
  hidePhotos: row.privacy_hide_photos,
  // A play count carries no notes.
  hideNotes: true,
});

/** A roster entry (or the changed fields of one) as a shared link shows it. */
function sharedEntry<T extends Partial<PlayCountRosterEntry>>(
  shareKey: string,
  e: T,
  privacy: PublicPrivacy,
) {
  const { key, jersey, playerName, playCount, location, imageURL } = e;
  return {
    ...(key !== undefined ? { key } : {}),
    ...(jersey !== undefined ? { jersey } : {}),
    ...(playerName !== undefined
      ? { playerName: privacy.initialsOnly ? initialsOf(playerName) : playerName }
      : {}),
    ...(playCount !== undefined ? { playCount } : {}),
    ...(location !== undefined ? { location } : {}),
    ...('imageURL' in e
      ? {
          imageURL:
            privacy.hidePhotos || !imageURL
              ? ''
              : parsePhotoRef(imageURL) && key !== undefined
                ? sharedPhotoPath(shareKey, key)
                : imageURL,
        }
      : {}),
  };
}

/**
 * What a shared link shows: the count with its own copy of the sheet's privacy applied (a
 * phone app's count has none), our photos named through the link. Null once revoked.
 */
export async function findShared(q: Queryable, shareKey: string): Promise<SharedPlayCount | null> {
  const row = await findSharedRow(q, shareKey);
  if (!row) return null;
  const privacy = privacyOf(row);
  const roster = row.game.roster.map((e) => ({
    imageURL: '',
    ...(sharedEntry(shareKey, e, privacy) as Omit<SharedPlayCount['roster'][number], 'imageURL'>),
  }));
  return {
    gameName: row.game.gameName,
    gameDate: row.game.gameDate,
    teamName: row.team_name,
    minPlays: row.min_plays === null ? null : Number(row.min_plays),
    playersPerSnap: row.players_per_snap === null ? null : Number(row.players_per_snap),
    roster,
    snaps: (await liveSnaps(q, row.game_key)).map((s) => ({
      quarter: s.quarter,
      groupName: s.groupName,
    })),
    finished: row.finished,
  };
}

/** The owner's delta as the shared link's viewers get it: privacy applied, snaps trimmed. */
export function sharedDelta(
  shareKey: string,
  delta: PlayCountDelta,
  privacy: PublicPrivacy,
): PlayCountDelta {
  const f = delta.fields ?? {};
  const fields = Object.fromEntries(
    ['gameName', 'gameDate', 'minPlays', 'playersPerSnap', 'finished']
      .filter((k) => k in f)
      .map((k) => [k, f[k]]),
  );
  return {
    fields,
    ...(delta.roster
      ? {
          roster: {
            ...delta.roster,
            upsert: delta.roster.upsert?.map((e) => ({
              key: e.key,
              ...sharedEntry(shareKey, e, privacy),
            })),
          },
        }
      : {}),
    ...(delta.snaps
      ? {
          snaps: {
            keep: delta.snaps.keep,
            add: (delta.snaps.add as Snap[]).map((s) => ({
              quarter: s.quarter,
              groupName: s.groupName,
            })),
          },
        }
      : {}),
  };
}

/**
 * A sheet's privacy changed: its counts' copies follow it. Answers the topics of their shared
 * links, whose open viewers then reload with the new option.
 */
export async function followSheetPrivacy(
  q: Queryable,
  teamKey: string,
  privacy: { initialsOnly: boolean; hidePhotos: boolean },
): Promise<string[]> {
  const rows = await q.query<{ share_key: string | null }>(
    `UPDATE play_count_games SET privacy_initials_only = $2, privacy_hide_photos = $3
      WHERE team_key = $1 RETURNING share_key`,
    [teamKey, privacy.initialsOnly, privacy.hidePhotos],
  );
  return rows.flatMap((r) => (r.share_key ? [playCountShareTopic.name(r.share_key)] : []));
}

/** A team's play counts (its owner's), oldest first, for the season view. */
export async function seasonOf(
  q: Queryable,
  team: { team_key: string; uid: string; team_name: string },
): Promise<Season> {
  const rows = await q.query<GameRow>(
    `SELECT * FROM play_count_games WHERE team_key = $1 AND uid = $2
      ORDER BY game->>'gameDate', created_at, game_key`,
    [team.team_key, team.uid],
  );
  const games = rows.map((r) => ({
    gameKey: r.game_key,
    gameName: r.game.gameName,
    gameDate: r.game.gameDate,
    minPlays: r.min_plays === null ? null : Number(r.min_plays),
    roster: r.game.roster,
  }));
  return {
    teamKey: team.team_key,
    teamName: team.team_name,
    games: games.map(({ roster: _roster, ...g }) => g),
    players: seasonTotals(games),
  };
}
