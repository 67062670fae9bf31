import {
  defaultScoreboard,
  type GameCommentInput,
  type ScoreboardFields,
  type ScoreboardPatch,
  tagMatchKey,
} from '@sagan/shared/scoreboard';
import { type ClockTopic, type GameClockState } from '@sagan/shared/game-clock';
import { GAME_HISTORY_LIMIT, type GameHistoryEntry } from '@sagan/shared/game-history';
import { SCORING_FIELDS, tennisSummary } from '@sagan/shared/scoreboard-boards';
import { boardKind } from '@sagan/shared/sports';
import type { GameEventAnswer } from '@sagan/shared/game-events';
import {
  fieldChanges,
  foldGame,
  isHeld,
  type GameAction,
  type VoidBody,
} from '@sagan/shared/game-log';
import { applyIntent } from '@sagan/shared/scorekeeping';
import { changedRules, playBegun } from '@sagan/shared/game-rules';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { upcomingGamesTopic } from '@sagan/shared/topics/upcoming-games';
import { startProblem } from '@sagan/shared/game-schedule';
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
import type { GameOwn } from '@sagan/shared/topics/game-own';
import type { Queryable } from '../../db/db.ts';
import {
  appendBaseline,
  writeGameEvent,
  type Decision,
  type EventOrigin,
  type GameWriter,
  type LockedGame,
} from '../../lib/game-write.ts';
import { roleOn } from '../../lib/game-guard.ts';
import { forbidden, HttpError, notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';
import { decideHeld, logged, readLog } from './held.ts';
import { checkPlayer, lastScoringTap, loadSheetRows } from './sheet-repo.ts';
import { keptWithName } from '../../lib/kept-names.ts';

// Reads of the scoreboards feature: each realtime topic's whole state (DESIGN §4).

interface GameRow {
  game_key: string;
  fields: Partial<ScoreboardFields>;
  time_stamp: number | string;
}

export interface OwnedGame {
  uid: string;
  fields: ScoreboardFields;
  /** Hidden by an operator: missing to everyone but its owner and the operators. */
  hidden: boolean;
}

/** Whether an operator blocked the owner of game alias g from public games. */
const OWNER_BLOCKED =
  'EXISTS (SELECT 1 FROM users bu WHERE bu.uid = g.uid AND bu.blocked_at IS NOT NULL)';

/**
 * The one condition every public read of games (alias g) goes through (DESIGN §10): a game an
 * operator hid, or whose owner an operator blocked, answers as missing everywhere the public
 * looks.
 */
export const PUBLIC_GAME = `(g.hidden_at IS NULL AND NOT ${OWNER_BLOCKED})`;
/** The opposite, for the lists that show such games to their scorers, marked. */
const HIDDEN_GAME = `(g.hidden_at IS NOT NULL OR ${OWNER_BLOCKED})`;

const GAME_COLUMNS = 'g.game_key, g.fields, g.time_stamp';

/**
 * A game (alias g) scheduled ahead and not begun: it has a start, and no scoring event stands
 * in its log. A tap taken back does not count, nor the void that took it back, so a game whose
 * only tap was a mistake is upcoming again.
 */
const UPCOMING = `(g.fields ? 'startsAt' AND NOT EXISTS (
  SELECT 1 FROM game_events e WHERE e.game_key = g.game_key AND e.voided_by IS NULL
    AND e.body ->> 'kind' <> 'void'
    AND e.changes ?| ARRAY[${SCORING_FIELDS.map((f) => `'${f}'`).join(', ')}]))`;

/**
 * The dashboard's Upcoming leaves out a game whose start is this long gone and that never
 * began: its scorer did not come. It stays on its tags' pages and its owner's list.
 */
const UPCOMING_STALE_MS = 24 * 3_600_000;
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
    ...(g.startsAt !== undefined ? { startsAt: g.startsAt } : {}),
    ...(boardKind(g.sportID) === 'tennis' ? { tennis: tennisSummary(g) } : {}),
  };
}

/** A game, hidden or not: for its owner's writes and the operators. */
export async function findGame(q: Queryable, gameKey: string): Promise<OwnedGame | null> {
  const rows = await q.query<{
    uid: string;
    fields: Partial<ScoreboardFields>;
    hidden: boolean;
  }>(`SELECT g.uid, g.fields, ${HIDDEN_GAME} AS hidden FROM games g WHERE g.game_key = $1`, [
    gameKey,
  ]);
  const row = rows[0];
  return row
    ? { uid: row.uid, fields: { ...defaultScoreboard, ...row.fields }, hidden: row.hidden }
    : null;
}

/** A game as the public may see it: null when missing or hidden. */
export async function findPublicGame(q: Queryable, gameKey: string): Promise<OwnedGame | null> {
  const game = await findGame(q, gameKey);
  return game && !game.hidden ? game : null;
}

/** Whether uid scores this game (its owner or a co-scorer): who may watch its changes. */
export async function scoresGame(q: Queryable, uid: string, gameKey: string): Promise<boolean> {
  const game = await findGame(q, gameKey);
  return !!game && (await roleOn(q, 'game', gameKey, game.uid, uid)) !== null;
}

/**
 * Who may still see a game an operator hid (DESIGN §10): its scorers (owner and co-scorers)
 * and the operators.
 */
export async function seesHidden(
  q: Queryable,
  uid: string,
  gameKey: string,
  adminUids: readonly string[],
): Promise<boolean> {
  return adminUids.includes(uid) || (await scoresGame(q, uid, gameKey));
}

/**
 * Whether this game exists, hidden from the public, and this person may still see it: its page
 * then opens for them (their app shows it, marked) where everyone else gets not found.
 */
export async function seesHiddenGame(
  q: Queryable,
  uid: string,
  gameKey: string,
  adminUids: readonly string[],
): Promise<boolean> {
  return !!(await findGame(q, gameKey)) && (await seesHidden(q, uid, gameKey, adminUids));
}

/** The game topic's state; a hidden game is null (missing) unless includeHidden. */
export async function loadGameTopic(
  q: Queryable,
  gameKey: string,
  includeHidden = false,
): Promise<GameTopic> {
  const games = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE g.game_key = $1 AND ($2 OR ${PUBLIC_GAME})`,
    [gameKey, includeHidden],
  );
  const game = games[0];
  if (!game) return null;
  // Comments and tags an operator hid are left out too, or, for the scorers, marked.
  const comments = await q.query<{
    id: number | string;
    comment: Partial<GameComment> & { gameComment: string; timeStamp: number };
    hidden: boolean;
  }>(
    `SELECT id, comment, hidden_at IS NOT NULL AS hidden FROM game_comments
      WHERE game_key = $1 AND ($2 OR hidden_at IS NULL) ORDER BY id DESC LIMIT ${COMMENTS_LIMIT}`,
    [gameKey, includeHidden],
  );
  const tags = await q.query<{ tag_key: string; name: string; hidden: boolean }>(
    `SELECT t.tag_key, t.name, t.hidden_at IS NOT NULL AS hidden
       FROM game_tags gt JOIN tags t ON t.tag_key = gt.tag_key
      WHERE gt.game_key = $1 AND ($2 OR t.hidden_at IS NULL) ORDER BY t.name_lower`,
    [gameKey, includeHidden],
  );
  const marked = (hidden: boolean) => (hidden ? { hidden: true as const } : {});
  return {
    top: toPublic(game),
    comments: comments.map((c) => ({
      ...COMMENT_DEFAULTS,
      ...c.comment,
      id: String(c.id),
      ...marked(c.hidden),
    })),
    tags: tags.map((t) => ({ key: t.tag_key, name: t.name, ...marked(t.hidden) })),
  };
}

/** The game topic's state as its scorers and the operators see it: shown, and marked, if hidden. */
export async function loadGameOwn(q: Queryable, gameKey: string): Promise<GameOwn> {
  const game = await findGame(q, gameKey);
  const state = game && (await loadGameTopic(q, gameKey, true));
  return state ? { ...state, hidden: game.hidden } : null;
}

interface ClockRow {
  clock_formatted: string | null;
  clock_seconds: number | null;
  clock_running: boolean;
  clock_started_at: number | string | null;
  clock_direction: string;
  clock_limit: number | null;
}
const CLOCK_COLUMNS =
  'clock_formatted, clock_seconds, clock_running, clock_started_at, clock_direction, clock_limit';

export function clockState(row: ClockRow): GameClockState {
  return {
    running: row.clock_running,
    seconds: row.clock_seconds ?? 0,
    startedAt: row.clock_started_at === null ? null : Number(row.clock_started_at),
    direction: row.clock_direction === 'down' ? 'down' : 'up',
    limit: row.clock_limit,
  };
}

/** The clock topic's state; its serverTime is stamped again whenever it is handed out. */
function clockPayload(state: GameClockState, formattedTime: string): NonNullable<ClockTopic> {
  return { ...state, formattedTime, serverTime: Date.now() };
}

export async function loadClock(q: Queryable, gameKey: string): Promise<ClockTopic> {
  const rows = await q.query<ClockRow>(
    `SELECT ${CLOCK_COLUMNS} FROM games g WHERE g.game_key = $1 AND ${PUBLIC_GAME}`,
    [gameKey],
  );
  const row = rows[0];
  return row ? clockPayload(clockState(row), row.clock_formatted ?? '') : null;
}

/**
 * The owner's history topic: the last scoreboard changes, newest first, from the event log
 * (who made each, on which device, whether it is voided) and, before it, the legacy history
 * rows kept from before the log.
 */
export async function loadGameHistory(
  q: Queryable,
  gameKey: string,
): Promise<{ entries: GameHistoryEntry[] } | null> {
  if (!(await findGame(q, gameKey))) return null;
  const rows = await q.query<{
    seq: number | string;
    at: number | string;
    changes: object;
    event_id: string | null;
    display_name: string | null;
    device: string | null;
    kind: string | null;
    voided: boolean | null;
    note: string | null;
    held: string | null;
    period: string | null;
    player: string | null;
    team: string | null;
    target: string | null;
  }>(
    // Held taps and the decisions on them are listed although they change nothing when
    // appended: the owner sees what waits, and what became of it.
    `SELECT * FROM (
       SELECT e.seq, e.at, e.changes, e.event_id, u.display_name, e.device,
              e.body ->> 'kind' AS kind, e.voided_by IS NOT NULL AS voided,
              e.answer ->> 'note' AS note,
              CASE WHEN NOT e.held THEN NULL WHEN e.resolved_by IS NULL THEN 'waiting'
                   ELSE (SELECT r.body ->> 'apply' FROM game_events r
                         WHERE r.game_key = e.game_key AND r.event_id = e.resolved_by) END AS held,
              CASE WHEN e.held THEN e.period END AS period,
              e.body ->> 'player' AS player, e.body ->> 'team' AS team,
              e.body ->> 'target' AS target
       FROM game_events e LEFT JOIN users u ON u.uid = e.uid
       WHERE e.game_key = $1 AND (e.changes <> '{}'::jsonb OR e.held
         OR e.body ->> 'kind' IN ('void', 'resolve', 'scorer'))
       UNION ALL
       SELECT seq, at, changes, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
       FROM game_history WHERE game_key = $1
     ) h ORDER BY seq DESC LIMIT ${GAME_HISTORY_LIMIT}`,
    [gameKey],
  );
  // Who scored, by name: the scorers' own list, so the sheet's full names.
  const sheets = rows.some((r) => r.player) ? await loadSheetRows(q, gameKey) : [];
  const nameOf = (team: string | null, player: string | null) =>
    sheets.find((sh) => sh.side === team)?.players.find((p) => p.playerKey === player)?.playerName;
  // A tap named afterwards reads with its scorer too: the newest naming that counts.
  const namedLater = new Map<string, string>();
  for (const r of rows) {
    if (r.kind === 'scorer' && r.target && r.player && !r.voided && !namedLater.has(r.target)) {
      namedLater.set(r.target, r.player);
    }
  }
  return {
    entries: rows.map((r) => ({
      seq: Number(r.seq),
      at: Number(r.at),
      changes: r.changes as GameHistoryEntry['changes'],
      ...(r.event_id === null
        ? {}
        : {
            eventId: r.event_id,
            by: r.display_name,
            device: r.device,
            kind: r.kind ?? 'set',
            voided: !!r.voided,
            ...(r.note ? { note: r.note } : {}),
            ...(r.held ? { held: r.held as NonNullable<GameHistoryEntry['held']> } : {}),
            ...(r.period ? { period: r.period } : {}),
            ...(r.team === 'home' || r.team === 'away' ? { team: r.team } : {}),
            ...(r.player || (r.event_id && namedLater.has(r.event_id))
              ? {
                  player:
                    nameOf(r.team, r.player ?? namedLater.get(r.event_id ?? '') ?? null) ??
                    'a player',
                }
              : {}),
          }),
    })),
  };
}

/** SPEC §9: the 10 most recent games by timeStamp; a scheduled game once it has begun. */
export async function loadRecentGames(q: Queryable): Promise<GameSummary[]> {
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE ${PUBLIC_GAME} AND NOT ${UPCOMING}
     ORDER BY g.time_stamp DESC, g.game_key LIMIT ${RECENT_GAMES_LIMIT}`,
  );
  return rows.map(toSummary);
}

/** The dashboard's Upcoming: scheduled games not begun, soonest first. */
export async function loadUpcomingGames(q: Queryable): Promise<GameSummary[]> {
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE ${PUBLIC_GAME} AND ${UPCOMING}
       AND (g.fields ->> 'startsAt')::bigint >= $1
     ORDER BY (g.fields ->> 'startsAt')::bigint, g.game_key LIMIT ${RECENT_GAMES_LIMIT}`,
    [Date.now() - UPCOMING_STALE_MS],
  );
  return rows.map(toSummary);
}

/** The owner's own games, those an operator hid among them, marked so. */
export async function loadUserGames(q: Queryable, uid: string): Promise<GameSummary[]> {
  const rows = await q.query<GameRow & { hidden: boolean }>(
    `SELECT ${GAME_COLUMNS}, ${HIDDEN_GAME} AS hidden FROM games g WHERE g.uid = $1
     ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [uid],
  );
  return rows.map((r) => (r.hidden ? { ...toSummary(r), hidden: true as const } : toSummary(r)));
}

export async function loadFavorites(q: Queryable, uid: string) {
  const rows = await q.query<GameRow & { game_name: string }>(
    `SELECT ${GAME_COLUMNS}, f.game_name FROM favorite_scoreboards f
     JOIN games g ON g.game_key = f.game_key
     WHERE f.uid = $1 AND ${PUBLIC_GAME} ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [uid],
  );
  return rows.map((r) => ({ gameKey: r.game_key, gameName: r.game_name, game: toSummary(r) }));
}

/** Every public read of tags goes through this: a tag an operator hid is missing to all. */
const TAG_SELECT = `SELECT t.tag_key, t.name, t.server_time_stamp,
  (SELECT count(*) FROM game_tags gt JOIN games g ON g.game_key = gt.game_key
    WHERE gt.tag_key = t.tag_key AND ${PUBLIC_GAME})::int AS game_count
  FROM (SELECT * FROM tags WHERE hidden_at IS NULL) t`;

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
  const rows = await q.query<GameRow & { upcoming: boolean }>(
    `SELECT ${GAME_COLUMNS}, ${UPCOMING} AS upcoming
     FROM game_tags gt JOIN games g ON g.game_key = gt.game_key
     WHERE gt.tag_key = $1 AND ${PUBLIC_GAME} ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [tagID],
  );
  const upcoming = rows
    .filter((r) => r.upcoming)
    .map(toSummary)
    .sort((a, b) => (a.startsAt ?? 0) - (b.startsAt ?? 0));
  return {
    tag,
    games: rows.filter((r) => !r.upcoming).map(toSummary),
    ...(upcoming.length ? { upcoming } : {}),
  };
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
       JOIN tags t ON t.tag_key = gt.tag_key
       WHERE f.uid = $1 AND t.hidden_at IS NULL) AND ${PUBLIC_GAME}
     ORDER BY g.time_stamp DESC LIMIT ${LIST_LIMIT}`,
    [uid],
  );
  return { tags: tags.map(toTag), games: games.map(toSummary) };
}

/** Followers of these tags: their followedTags lists change when the tags' games change. */
async function tagFollowers(q: Queryable, tagKeys: string[]): Promise<string[]> {
  if (!tagKeys.length) return [];
  const rows = await q.query<{ uid: string }>(
    'SELECT DISTINCT uid FROM followed_tags WHERE tag_key = ANY($1::text[])',
    [tagKeys],
  );
  return rows.map((r) => r.uid);
}

// The scorekeeping writes' SQL (DESIGN §6). The routes, the demo seed and the simulator all
// send them as the changes of writes.ts, so what the phone app does and what the demo does are
// the same code path.

/** Whether an operator blocked uid from public games. */
export async function isBlocked(q: Queryable, uid: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE uid = $1 AND blocked_at IS NOT NULL', [
    uid,
  ]);
  return rows.length > 0;
}

/** Inserts a new game of uid's, with the baseline event its log starts from; answers its key. */
export async function insertGame(
  q: Queryable,
  uid: string,
  fields: ScoreboardFields,
): Promise<string> {
  const gameKey = newKey();
  await q.query('INSERT INTO games (game_key, uid, fields, time_stamp) VALUES ($1, $2, $3, $4)', [
    gameKey,
    uid,
    JSON.stringify(fields),
    Date.now(),
  ]);
  await appendBaseline(q, gameKey, uid, fields);
  return gameKey;
}

/**
 * Who sees game $1 in a per-user list or a tag page, so a change reaches them live: its
 * bookmarks, its tags, and followers of those tags.
 */
const AUDIENCE = `
  ARRAY(SELECT uid FROM favorite_scoreboards WHERE game_key = $1) AS bookmarkers,
  ARRAY(SELECT tag_key FROM game_tags WHERE game_key = $1) AS tag_keys,
  ARRAY(SELECT DISTINCT f.uid FROM followed_tags f
        JOIN game_tags gt ON gt.tag_key = f.tag_key WHERE gt.game_key = $1) AS tag_followers`;

interface Audience {
  bookmarkers: string[];
  tag_keys: string[];
  tag_followers: string[];
}

/** 409: a field of the patch changed after the writer's base; carries what is current. */
class StaleWriteError extends HttpError {
  constructor(fields: string[], seq: number, state: PublicScoreboard) {
    super(409, 'The scoreboard changed since you last saw it', {
      message: `Changed by someone else since your base: ${fields.join(', ')}`,
      seq,
      state,
    });
  }
}

/**
 * A scorekeeper's patch (the hot path of every live game), stored as a "set" event holding
 * only the fields it changes (DESIGN §10).
 *
 * With baseSeq (the game topic seq the writer last saw; the web sends it with its absolute
 * edits), a patch touching a field changed by a later write is refused with 409 and the current
 * state, so the edit is rebuilt on what is there instead of overwriting it. Without one (the
 * phone apps) the patch applies as it always did.
 */
export async function patchGame(
  app: GameWriter,
  origin: EventOrigin,
  gameKey: string,
  patch: ScoreboardPatch,
  baseSeq?: number,
): Promise<{ timeStamp: number; seq: number }> {
  return writeGameEvent(
    app,
    gameKey,
    { ...origin, ...(baseSeq !== undefined ? { baseSeq } : {}) },
    'score',
    async (game, q) => {
      if (baseSeq !== undefined) {
        const stale = Object.keys(patch).filter((f) => Number(game.field_seqs[f] ?? 0) > baseSeq);
        if (stale.length) {
          const current = await q.query<{ seq: number | string }>(
            'SELECT seq FROM topic_seq WHERE topic = $1',
            [gameTopic.name(gameKey)],
          );
          throw new StaleWriteError(
            stale,
            Number(current[0]?.seq ?? 0),
            toPublic({ game_key: gameKey, fields: game.fields, time_stamp: game.time_stamp }),
          );
        }
      }
      refuseRename(game, patch);
      refuseRuleChange(game, patch);
      refuseLateStart(game, patch);
      const values = applyIntent(game.fields, { kind: 'set', values: patch });
      return { body: { kind: 'set', values }, fields: { ...game.fields, ...values } };
    },
    ({ timeStamp, seq }) => ({ timeStamp, seq }),
  );
}

/** A co-scorer edits the scoreboard but never renames the game (DESIGN §10). */
function refuseRename(game: LockedGame, values: Partial<ScoreboardFields>): void {
  if (
    game.role !== 'owner' &&
    values.gameName !== undefined &&
    values.gameName !== game.fields.gameName
  ) {
    throw new HttpError(403, "Only the game's owner can rename it");
  }
}

/** A game's rules are its owner's to change, and only until play begins (game-rules.ts). */
function refuseRuleChange(game: LockedGame, values: ScoreboardPatch): void {
  if (changedRules(game.fields, values).length === 0) return;
  if (game.role !== 'owner') throw new HttpError(403, "Only the game's owner can change its rules");
  if (playBegun(game.fields)) {
    throw new HttpError(422, "The game's rules can't change once play has begun");
  }
}

/** A start moved to a time already gone is refused; one left as it was is not checked again. */
function refuseLateStart(game: LockedGame, values: Partial<ScoreboardFields>): void {
  if (values.startsAt === undefined || values.startsAt === game.fields.startsAt) return;
  const problem = startProblem(values.startsAt);
  if (problem) throw new HttpError(400, problem);
}

/**
 * Voids one event and folds the log again. A void whose effect a later "set" overwrote changes
 * nothing, and says which edit did it.
 */
async function voidEvent(
  q: Queryable,
  gameKey: string,
  game: LockedGame,
  eventId: string,
  target: string,
  uid: string,
): Promise<Decision> {
  const log = await readLog(q, gameKey);
  const at = log.findIndex((e) => e.event_id === target);
  const named = log[at];
  if (!named) throw notFound('No event with this id in this game');
  if (named.baseline) {
    throw new HttpError(409, "The game's starting state cannot be voided");
  }
  if (named.uid !== uid && game.role !== 'owner') throw forbidden();
  if (named.voided_by) throw new HttpError(409, 'This event is voided already');
  // The first decision on held taps wins (DESIGN §10): it is not taken back by a void.
  if (named.body.kind === 'resolve') {
    throw new HttpError(409, 'A decision on held taps stands: it cannot be voided');
  }
  const body: VoidBody = { kind: 'void', target };
  const fields = foldGame(defaultScoreboard, [...logged(log), { id: eventId, body }]);
  const decision: Decision = {
    body,
    fields,
    voids: {
      target,
      ...(named.body.kind === 'void' ? { restore: named.body.target } : {}),
    },
    // A held tap taken back (or counted again) changes what waits for the scorers.
    ...(named.held || (named.body.kind === 'void' && log.find((e) => e.event_id === target)?.held)
      ? { heldChanged: true }
      : {}),
  };
  if (Object.keys(fieldChanges(game.fields, fields)).length === 0) {
    const touched = Object.keys(named.changes);
    const overwrite = log
      .slice(at + 1)
      .reverse()
      .find(
        (e) =>
          !e.voided_by &&
          e.body.kind === 'set' &&
          touched.some((f) => f in (e.body as { values: object }).values),
      );
    decision.note = overwrite
      ? 'Changed nothing: a later edit overwrote it'
      : 'Changed nothing on the scoreboard';
    if (overwrite) decision.overwrittenAt = Number(overwrite.at);
  }
  return decision;
}

/**
 * The web scorekeeper's actions (DESIGN §10): an intent ("home +2"), relative and so never
 * refused as stale; Undo, which voids this device's own last event; or a void of one event
 * (the owner's correction from the Changes list).
 */
export async function recordAction(
  app: GameWriter,
  origin: EventOrigin,
  gameKey: string,
  action: GameAction,
): Promise<GameEventAnswer> {
  return writeGameEvent(
    app,
    gameKey,
    origin,
    'score',
    async (game, q, eventId) => {
      if (action.kind === 'undo') {
        const rows = await q.query<{ event_id: string }>(
          `SELECT event_id FROM game_events
           WHERE game_key = $1 AND uid = $2 AND device = $3 AND voided_by IS NULL
             AND body ->> 'kind' NOT IN ('void', 'resolve')
           ORDER BY seq DESC LIMIT 1`,
          [gameKey, origin.uid, origin.device ?? null],
        );
        const last = rows[0];
        if (!last) throw notFound('Nothing made on this device is left to undo');
        return voidEvent(q, gameKey, game, eventId, last.event_id, origin.uid);
      }
      if (action.kind === 'void') {
        return voidEvent(q, gameKey, game, eventId, action.target, origin.uid);
      }
      if (action.kind === 'set') {
        refuseRename(game, action.values);
        refuseRuleChange(game, action.values);
        refuseLateStart(game, action.values);
      }
      if (action.kind === 'resolve') return decideHeld(q, gameKey, game, eventId, action);
      if (action.kind === 'scorer') {
        // Who scored a tap already made: the player is checked, the tap found and named.
        await checkPlayer(q, gameKey, game.fields, action.team, action.player);
        const target = await lastScoringTap(q, gameKey, origin, action.team, action.tap);
        return { body: { ...action, target }, fields: game.fields, listed: true };
      }
      if (action.kind === 'hit') {
        // Kept with the hit: the batting team now, so a later naming finds the hits it may name.
        const team = game.fields.homePossession ? 'home' : 'away';
        if (action.player !== undefined) {
          await checkPlayer(q, gameKey, game.fields, team, action.player);
        }
        action = { kind: 'hit', team, ...(action.player ? { player: action.player } : {}) };
      } else if ('player' in action && action.player !== undefined) {
        await checkPlayer(q, gameKey, game.fields, action.team, action.player);
      }
      // Made in a set that has ended: kept for the scorers to decide, never folded silently.
      if (isHeld(game.fields, action, origin.period)) {
        return { body: action, fields: game.fields, held: true, heldChanged: true };
      }
      const patch = applyIntent(game.fields, action);
      return { body: action, fields: { ...game.fields, ...patch } };
    },
    (w) => ({
      eventId: w.eventId,
      seq: w.seq,
      timeStamp: w.timeStamp,
      changed: Object.keys(w.changes).length > 0,
      ...(w.note ? { note: w.note } : {}),
      ...(w.overwrittenAt ? { overwrittenAt: w.overwrittenAt } : {}),
      ...(w.held ? { held: true, arrivedIn: w.arrivedIn } : {}),
    }),
  );
}

/** A game's clock columns and owner, locked for a write; null for an unknown game. */
export async function lockClock(
  q: Queryable,
  gameKey: string,
): Promise<(ClockRow & { uid: string }) | null> {
  const rows = await q.query<ClockRow & { uid: string }>(
    `SELECT uid, ${CLOCK_COLUMNS} FROM games WHERE game_key = $1 FOR NO KEY UPDATE`,
    [gameKey],
  );
  return rows[0] ?? null;
}

/** Stores the clock's state; answers the clock topic's state that shows it. */
export async function saveClock(
  q: Queryable,
  gameKey: string,
  state: GameClockState,
  formattedTime: string,
): Promise<NonNullable<ClockTopic>> {
  await q.query(
    `UPDATE games SET clock_running = $2, clock_seconds = $3, clock_started_at = $4,
       clock_direction = $5, clock_limit = $6, clock_formatted = $7
     WHERE game_key = $1`,
    [
      gameKey,
      state.running,
      state.seconds,
      state.startedAt,
      state.direction,
      state.limit,
      formattedTime,
    ],
  );
  return clockPayload(state, formattedTime);
}

/** A new comment's id. */
export async function insertComment(
  q: Queryable,
  gameKey: string,
  comment: GameCommentInput,
): Promise<string> {
  const rows = await q.query<{ id: number | string }>(
    'INSERT INTO game_comments (game_key, comment) VALUES ($1, $2) RETURNING id',
    [gameKey, JSON.stringify({ ...comment, timeStamp: Date.now() })],
  );
  return String(rows[0]?.id);
}

/**
 * Replaces the game's tags. A tag is created on first use, matched Unicode case-insensitively
 * (SPEC §3 Tag); its gameCount is counted from game_tags, so it always follows its games.
 * Answers the game's tags, and the tags it gained or lost with their followers (whose lists
 * change with them).
 */
export async function replaceTags(
  q: Queryable,
  gameKey: string,
  names: string[],
): Promise<{ tags: { key: string; name: string }[]; touched: string[]; followers: string[] }> {
  const byLower = new Map<string, string>();
  for (const name of names)
    if (!byLower.has(tagMatchKey(name))) byLower.set(tagMatchKey(name), name);
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
  return { tags, touched, followers: await tagFollowers(q, touched) };
}

/**
 * Every topic that shows a game (its own, the lists and tag counts holding it, its owner's,
 * bookmarkers' and tag followers' lists): what a change of its visibility must tell.
 */
export async function gameAudienceTopics(
  q: Queryable,
  gameKey: string,
  ownerUid: string,
): Promise<string[]> {
  const [row] = await q.query<Audience>(`SELECT ${AUDIENCE}`, [gameKey]);
  if (!row) return [];
  return [
    gameTopic.name(gameKey),
    clockTopic.name(gameKey),
    gameDetailTopic.name(gameKey),
    recentGamesTopic.name(),
    upcomingGamesTopic.name(),
    myGamesTopic.name(ownerUid),
    ...(row.tag_keys.length ? [tagsTopic.name()] : []),
    ...row.tag_keys.map(tagTopic.name),
    ...row.bookmarkers.map(favoritesTopic.name),
    ...row.tag_followers.map(followedTagsTopic.name),
  ];
}

/**
 * Every topic that shows a tag (the tag lists and counts, its page, its followers' lists, and
 * the pages of the games carrying it): what a change of its visibility must tell.
 */
export async function tagAudienceTopics(
  q: Queryable,
  tagKey: string,
  gameKeys: string[],
): Promise<string[]> {
  return [
    tagsTopic.name(),
    tagTopic.name(tagKey),
    ...(await tagFollowers(q, [tagKey])).map((uid) => followedTagsTopic.name(uid)),
    ...gameKeys.map(gameTopic.name),
  ];
}

/** Whether the public may see this comment of this game (and the game). */
export async function findPublicComment(
  q: Queryable,
  gameKey: string,
  commentId: string,
): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM game_comments c JOIN games g ON g.game_key = c.game_key
      WHERE c.id = $1 AND c.game_key = $2 AND c.hidden_at IS NULL AND ${PUBLIC_GAME}`,
    [commentId, gameKey],
  );
  return rows.length > 0;
}

/** Who heard of a game that is gone: what audienceOf needs to tell them. */
export interface DeletedGame {
  ownerUid: string;
  tagKeys: string[];
  bookmarkers: string[];
  tagFollowers: string[];
  scorers: string[];
}

/**
 * Deletes a game with everything hanging off it (comments, tags, bookmarks, messages,
 * history); answers who showed it, or null when there is no such game.
 */
export async function deleteGameRow(q: Queryable, gameKey: string): Promise<DeletedGame | null> {
  const rows = await q.query<Audience & { uid: string; scorers: string[] }>(
    `SELECT g.uid, ${AUDIENCE},
       ARRAY(SELECT uid FROM coscorers WHERE game_key = $1 AND uid IS NOT NULL) AS scorers
     FROM games g WHERE g.game_key = $1 FOR UPDATE`,
    [gameKey],
  );
  const row = rows[0];
  if (!row) return null;
  await q.query('DELETE FROM games WHERE game_key = $1', [gameKey]);
  return {
    ownerUid: row.uid,
    tagKeys: row.tag_keys,
    bookmarkers: row.bookmarkers,
    tagFollowers: row.tag_followers,
    scorers: row.scorers,
  };
}

/** Marks a message of the game read (or unread again); false when the game has no such message. */
export async function setMessageRead(
  q: Queryable,
  gameKey: string,
  messageId: string,
  read: boolean,
): Promise<boolean> {
  const rows = await q.query(
    'UPDATE scorekeeper_messages SET read = $3 WHERE game_key = $1 AND id = $2 RETURNING id',
    [gameKey, messageId, read],
  );
  return rows.length > 0;
}

/** The messages viewers sent a game's scorekeeper, newest first. */
export async function listScorekeeperMessages(q: Queryable, gameKey: string) {
  const rows = await q.query<{
    id: number | string;
    display_name: string | null;
    message: string;
    created_at: Date | string;
    read: boolean;
  }>(
    `SELECT m.id, u.display_name, m.message, m.created_at, m.read
     FROM scorekeeper_messages m JOIN users u ON u.uid = m.from_uid
     WHERE m.game_key = $1 ORDER BY m.id DESC LIMIT 200`,
    [gameKey],
  );
  return rows.map((r) => ({
    id: String(r.id),
    fromName: r.display_name,
    message: r.message,
    createdAt: new Date(r.created_at).getTime(),
    read: r.read,
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
const bookmarks = keptWithName('favorite_scoreboards', 'game_key', 'game_name');
export const addFavoriteScoreboard = bookmarks.keep;
export const removeFavoriteScoreboard = bookmarks.drop;

export async function followTag(q: Queryable, uid: string, tagKey: string): Promise<void> {
  await q.query('INSERT INTO followed_tags (uid, tag_key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    uid,
    tagKey,
  ]);
}

export async function unfollowTag(q: Queryable, uid: string, tagKey: string): Promise<void> {
  await q.query('DELETE FROM followed_tags WHERE uid = $1 AND tag_key = $2', [uid, tagKey]);
}
