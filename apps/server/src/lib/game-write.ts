import type { FastifyRequest } from 'fastify';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { fieldChanges, type GameEventBody } from '@sagan/shared/game-log';
import { idempotencyKeySchema } from '@sagan/shared/idempotency';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameHeldTopic } from '@sagan/shared/topics/game-held';
import { gameHistoryTopic } from '@sagan/shared/topics/game-history';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { tagTopic } from '@sagan/shared/topics/tag';
import { upcomingGamesTopic } from '@sagan/shared/topics/upcoming-games';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import type { Db, Queryable } from '../db/db.ts';
import type { Hub } from '../realtime/hub.ts';
import { guardGame, type GameRole } from './game-guard.ts';
import { badRequest, HttpError, notFound } from './http-errors.ts';
import { fingerprintOf } from './idempotency.ts';
import { newKey } from './keys.ts';

// DESIGN §10: the one write helper of the event logs. writeEvent is the order every write to a
// log follows; a game's scoreboard writes (the phone apps' PATCH, the web's intents, Undo and
// voids, the demo) run through writeGameEvent on it, a play count's snaps and undos through it
// with the count's log (routes/playcounts/sideline.ts). A game's write does, in this order: authorization (the owner/co-scorer guard on the locked row), idempotency
// (the event id is the Idempotency-Key: a replay answers the stored answer), the transaction,
// the event append (with the new snapshot, in one statement), and the notification of the
// topics the write touches (sent at commit). The event row is also the history entry and the
// idempotency record, so a write costs no more statements than before the log.

/** What a write needs: a transaction runner and the hub to name the topics it changed. */
export interface GameWriter {
  db: Pick<Db, 'tx' | 'query'>;
  hub: Pick<Hub, 'changedSeqs'>;
}

/** Who writes, and under which event id (their Idempotency-Key, if they sent one). */
export interface EventOrigin {
  uid: string;
  /** The client's Idempotency-Key; without one the server makes the event id. */
  key?: string;
  /** The request's hash: the same key with another request is refused with 422. */
  fingerprint?: string;
  device?: string | null;
  baseSeq?: number;
  period?: string;
}

/** The Idempotency-Key of a request, checked, with the request's fingerprint. */
export function originOf(req: FastifyRequest, uid: string): EventOrigin {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return { uid };
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw badRequest(`Invalid request: ${parsed.error.issues[0]?.message}`);
  return { uid, key: parsed.data, fingerprint: fingerprintOf(req) };
}

/** The game row as a write sees it, locked until commit, with who shows it where. */
export interface LockedGame {
  uid: string;
  fields: ScoreboardFields;
  time_stamp: number | string;
  field_seqs: Record<string, number>;
  bookmarkers: string[];
  tag_keys: string[];
  tag_followers: string[];
  role: GameRole;
}

/** What a write decided: the event's body and the snapshot it leads to. */
export interface Decision {
  body: GameEventBody;
  fields: ScoreboardFields;
  /** Events whose voided_by this write sets (a void) or clears (a void of a void). */
  voids?: { target: string; restore?: string };
  /** Why the event changed nothing, when it did not (e.g. a later edit overwrote it). */
  note?: string;
  overwrittenAt?: number;
  /** Made in a period that had ended: stored, not folded, until a scorer decides. */
  held?: boolean;
  /** The held events this decision settles (their resolved_by becomes this event). */
  resolves?: string[];
  /** What waits for the scorers changed: their private topic is sent again. */
  heldChanged?: boolean;
  /** Changes nothing on the board but is in the Changes list (who scored a tap). */
  listed?: boolean;
}

export interface Written {
  eventId: string;
  seq: number;
  timeStamp: number;
  changes: Record<string, { from: unknown; to: unknown }>;
  note?: string;
  overwrittenAt?: number;
  held?: boolean;
  /** For a held event: the period the game was at when it arrived. */
  arrivedIn?: string;
}

export interface Prior {
  uid: string;
  fingerprint: string | null;
  answer: unknown;
}

/**
 * The row is locked first, so what it says holds until commit. Exported, with the append below,
 * for bench:write-cpu's floor: a score write's own statements run without the server.
 */
export const LOCK_GAME_SQL = `
  SELECT g.uid, g.fields, g.time_stamp, g.field_seqs,
    ARRAY(SELECT uid FROM favorite_scoreboards WHERE game_key = $1) AS bookmarkers,
    ARRAY(SELECT tag_key FROM game_tags WHERE game_key = $1) AS tag_keys,
    ARRAY(SELECT DISTINCT f.uid FROM followed_tags f
          JOIN game_tags gt ON gt.tag_key = f.tag_key WHERE gt.game_key = $1) AS tag_followers,
    (SELECT json_build_object('uid', e.uid, 'fingerprint', e.fingerprint, 'answer', e.answer)
     FROM game_events e WHERE e.game_key = $1 AND e.event_id = $2) AS prior
  FROM games g WHERE g.game_key = $1 FOR NO KEY UPDATE`;

/**
 * The event appended with its answer and the game's new snapshot, in one statement; nothing is
 * written when an event with this id is already there (the loser of a race under one key).
 */
export const APPEND_GAME_EVENT_SQL = `WITH e AS (
     INSERT INTO game_events (game_key, event_id, uid, device, base_seq, seq, period, at,
                              body, changes, fingerprint, answer, held)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12::jsonb, $16)
     ON CONFLICT DO NOTHING RETURNING 1
   ), u AS (
     UPDATE games SET fields = $13, time_stamp = $14, field_seqs = field_seqs || $15::jsonb
     WHERE game_key = $1 AND EXISTS (SELECT 1 FROM e)
   )
   SELECT 1 FROM e`;

/** Two requests raced under one key: the loser's effects must not stay. */
export class AlreadyApplied extends Error {}

const reused = () =>
  new HttpError(
    422,
    'This Idempotency-Key was already used for another request: make a new key per change',
  );

function replayOf<T>(prior: Prior, origin: EventOrigin): T {
  if (prior.uid !== origin.uid || (prior.fingerprint ?? null) !== (origin.fingerprint ?? null)) {
    throw reused();
  }
  return prior.answer as T;
}

/**
 * What the write helper needs of an event log (a game's, a play count's): the table its events
 * are in (keyed by game_key and event_id, each keyed write's uid, fingerprint and answer kept
 * on its event row), how to lock the row and find the event with an id in one statement, and
 * who may write.
 */
export interface EventLog<Row extends { uid: string }, Role> {
  table: 'game_events' | 'playcount_events';
  /** Said when there is no row under the key. */
  missing: string;
  lock(q: Queryable, key: string, eventId: string): Promise<(Row & { prior: Prior | null }) | null>;
  /** The writer's role, or an HttpError for a writer who may not. */
  guard(q: Queryable, key: string, row: Row, uid: string, need: 'score' | 'owner'): Promise<Role>;
}

/**
 * The order every write to an event log follows: the row locked with the event under this id,
 * the guard, a replay answering the stored answer, then `write` (which decides, appends the
 * event with its answer and notifies its topics). A write whose append conflicts throws
 * AlreadyApplied; a keyed write that fails looks its event up, so a replay whose write would
 * now be refused, or the loser of a race under one key, gets the first answer.
 */
async function writeEvent<Row extends { uid: string }, Role, T>(
  db: Pick<Db, 'tx' | 'query'>,
  log: EventLog<Row, Role>,
  key: string,
  origin: EventOrigin,
  need: 'score' | 'owner',
  write: (row: Row, role: Role, q: Queryable, eventId: string) => Promise<T>,
): Promise<T> {
  const eventId = origin.key ?? newKey();
  // Only a writer the guard let in may learn what an event id holds (a count's existence is
  // private): a refusal before it stands as it is.
  let guarded = false;
  try {
    return await db.tx(async (q) => {
      const row = await log.lock(q, key, eventId);
      if (!row) throw notFound(log.missing);
      const role = await log.guard(q, key, row, origin.uid, need);
      guarded = true;
      if (row.prior) return replayOf<T>(row.prior, origin);
      return write(row, role, q, eventId);
    });
  } catch (err) {
    if (origin.key === undefined || !guarded) throw err;
    const rows = await db.query<Prior>(
      `SELECT uid, fingerprint, answer FROM ${log.table} WHERE game_key = $1 AND event_id = $2`,
      [key, eventId],
    );
    if (rows[0]) return replayOf<T>(rows[0], origin);
    if (err instanceof AlreadyApplied) {
      throw new HttpError(409, 'This request is being applied: send it again');
    }
    throw err;
  }
}

/** What an event write did: its answer, and the topics it touched with what changed in them. */
export interface EventWritten<T> {
  answer: T;
  touched: readonly string[];
  merges?: Record<string, Record<string, unknown>>;
}

/**
 * writeEvent for a log whose writes name the topics they touched (a play count's, by its
 * feature's audienceOf) instead of notifying them: the notification is sent here, at commit.
 */
export async function writeNamedEvent<Row extends { uid: string }, Role, T>(
  app: GameWriter,
  log: EventLog<Row, Role>,
  key: string,
  origin: EventOrigin,
  need: 'score' | 'owner',
  write: (row: Row, role: Role, q: Queryable, eventId: string) => Promise<EventWritten<T>>,
): Promise<T> {
  return writeEvent(app.db, log, key, origin, need, async (row, role, q, eventId) => {
    const done = await write(row, role, q, eventId);
    if (done.touched.length) await app.hub.changedSeqs(q, [...done.touched], done.merges);
    return done.answer;
  });
}

type GameRow = Omit<LockedGame, 'fields' | 'role'> & { fields: Partial<ScoreboardFields> };

const gameLog: EventLog<GameRow, GameRole> = {
  table: 'game_events',
  missing: 'No game with this key',
  lock: async (q, gameKey, eventId) =>
    (await q.query<GameRow & { prior: Prior | null }>(LOCK_GAME_SQL, [gameKey, eventId]))[0] ??
    null,
  guard: (q, gameKey, row, uid, need) => guardGame(q, gameKey, row.uid, uid, need),
};

/**
 * Appends one event to a game's log and moves its snapshot. `decide` sees the locked game and
 * returns the event and the new scoreboard; `answer` builds the write's answer, which a replay
 * under the same key gets again. `need` is the role the write requires ('score' for a scorer's
 * tap, 'owner' for what only the owner may do).
 */
export async function writeGameEvent<T>(
  app: GameWriter,
  gameKey: string,
  origin: EventOrigin,
  need: 'score' | 'owner',
  decide: (game: LockedGame, q: Queryable, eventId: string) => Promise<Decision> | Decision,
  answer: (written: Written) => T,
): Promise<T> {
  return writeEvent(app.db, gameLog, gameKey, origin, need, async (row, role, q, eventId) => {
    const game: LockedGame = { ...row, fields: { ...defaultScoreboard, ...row.fields }, role };
    const decision = await decide(game, q, eventId);
    const changes = fieldChanges(game.fields, decision.fields);
    const changed = Object.keys(changes).length > 0;
    // timeStamp is the server's (DESIGN §6), and always moves forward so the recent order holds.
    const timeStamp = Math.max(Date.now(), Number(row.time_stamp) + 1);
    const topic = gameTopic.name(gameKey);
    const top = { ...decision.fields, gameKey, timeStamp };
    // Only the scoreboard itself changed: viewers' nodes build the new state from the old.
    const seqs = await app.hub.changedSeqs(
      q,
      [
        topic,
        recentGamesTopic.name(),
        myGamesTopic.name(row.uid),
        ...row.bookmarkers.map(favoritesTopic.name),
        ...row.tag_keys.map(tagTopic.name),
        ...row.tag_followers.map(followedTagsTopic.name),
        ...(changed || decision.voids || decision.heldChanged || decision.listed
          ? [gameHistoryTopic.name(gameKey)]
          : []),
        ...(decision.heldChanged ? [gameHeldTopic.name(gameKey)] : []),
        // A scheduled game's first score moves it from Upcoming to the recent games.
        ...(game.fields.startsAt !== undefined || decision.fields.startsAt !== undefined
          ? [upcomingGamesTopic.name()]
          : []),
        // The line score: a hit or an error moves it without changing the scoreboard.
        gameDetailTopic.name(gameKey),
      ],
      { [topic]: { top } },
    );
    const seq = seqs[topic]!;
    const written: Written = {
      eventId,
      seq,
      timeStamp,
      changes,
      ...(decision.note ? { note: decision.note } : {}),
      ...(decision.overwrittenAt ? { overwrittenAt: decision.overwrittenAt } : {}),
      ...(decision.held ? { held: true, arrivedIn: game.fields.gamePeriod } : {}),
    };
    const result = answer(written);
    const fieldSeqs = Object.fromEntries(Object.keys(changes).map((f) => [f, seq]));
    const appended = await q.query(APPEND_GAME_EVENT_SQL, [
      gameKey,
      eventId,
      origin.uid,
      origin.device ?? null,
      origin.baseSeq ?? null,
      seq,
      origin.period ?? game.fields.gamePeriod,
      Date.now(),
      JSON.stringify(decision.body),
      JSON.stringify(changes),
      origin.fingerprint ?? null,
      JSON.stringify(result ?? null),
      JSON.stringify(decision.fields),
      timeStamp,
      JSON.stringify(fieldSeqs),
      decision.held ?? false,
    ]);
    if (!appended.length) throw new AlreadyApplied();
    if (decision.resolves) {
      await q.query(
        `UPDATE game_events SET resolved_by = $3
         WHERE game_key = $1 AND event_id = ANY($2::text[])`,
        [gameKey, decision.resolves, eventId],
      );
    }
    if (decision.voids) {
      await q.query(
        `UPDATE game_events SET voided_by = CASE WHEN event_id = $2 THEN $4 ELSE NULL END
         WHERE game_key = $1 AND event_id IN ($2, $3)`,
        [gameKey, decision.voids.target, decision.voids.restore ?? null, eventId],
      );
    }
    if (changes.gameName) {
      // SPEC §7 bookmarks carry the gameName; keep it the game's current name.
      await q.query('UPDATE favorite_scoreboards SET game_name = $2 WHERE game_key = $1', [
        gameKey,
        decision.fields.gameName,
      ]);
    }
    return result;
  });
}

/**
 * A new (or imported) game's log starts with a baseline event holding its whole first state,
 * so the fold from it does not depend on anything before it.
 */
export async function appendBaseline(
  q: Queryable,
  gameKey: string,
  uid: string,
  stored: Record<string, unknown>,
  eventId = 'baseline',
): Promise<void> {
  const fields = { ...defaultScoreboard, ...stored };
  await q.query(
    `INSERT INTO game_events (game_key, event_id, uid, seq, period, at, body)
     VALUES ($1, $2, $3,
       COALESCE((SELECT seq FROM topic_seq WHERE topic = $4), 0), $5, $6, $7::jsonb)
     ON CONFLICT DO NOTHING`,
    [
      gameKey,
      eventId,
      uid,
      gameTopic.name(gameKey),
      fields.gamePeriod,
      Date.now(),
      JSON.stringify({ kind: 'set', values: fields }),
    ],
  );
}
