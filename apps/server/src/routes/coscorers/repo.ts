import crypto from 'node:crypto';
import {
  INVITE_TTL_MS,
  type CoscorerList,
  type Invite,
  type RedeemAnswer,
  type ScoredKind,
  type ScoringList,
} from '@sagan/shared/coscorers';
import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import type { Queryable } from '../../db/db.ts';
import type { Hub } from '../../realtime/hub.ts';
import { scorerTopics } from '../../lib/game-guard.ts';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { newKey, sha256 } from '../../lib/keys.ts';

// Co-scorers (DESIGN §10): invitations made by the owner of a game or a play count, redeemed
// once by a signed-in user and then bound to that account until the owner revokes them. The
// guard that reads the bindings is lib/game-guard.ts.

/** The column of coscorers naming the thing of each kind, and its table. */
const KIND = {
  game: { column: 'game_key', table: 'games', name: "t.fields->>'gameName'" },
  playcount: { column: 'playcount_key', table: 'play_count_games', name: "t.game->>'gameName'" },
} as const;

const NOT_FOUND = { game: 'No game with this key', playcount: 'Play count not found' } as const;

/**
 * The owner of a game or a count, or the refusal: a game answers 403 to anyone else (the
 * phone app must learn it is not the scorekeeper), a private play count 404 (its existence is
 * not revealed). A co-scorer is anyone else here: inviting and revoking are the owner's.
 */
async function requireOwner(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
): Promise<void> {
  const { table } = KIND[kind];
  const rows = await q.query<{ uid: string }>(
    `SELECT uid FROM ${table} WHERE game_key = $1 FOR NO KEY UPDATE`,
    [gameKey],
  );
  const owner = rows[0]?.uid;
  if (owner === uid) return;
  if (owner === undefined || kind === 'playcount') throw notFound(NOT_FOUND[kind]);
  throw new HttpError(403, "Only the game's owner can invite or remove co-scorers");
}

/** A new invitation link's secret; the database keeps only its hash. */
const newToken = () => crypto.randomBytes(32).toString('base64url');

export async function createInvite(
  q: Queryable,
  hub: Pick<Hub, 'changed'>,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
): Promise<Omit<Invite, 'link' | 'qr'>> {
  await requireOwner(q, kind, gameKey, uid);
  const token = newToken();
  const id = newKey();
  const now = Date.now();
  const expiresAt = now + INVITE_TTL_MS;
  await q.query(
    `INSERT INTO coscorers (id, ${KIND[kind].column}, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [id, gameKey, sha256(token), now, expiresAt],
  );
  await hub.changed(q, [coscorersTopic.name(kind, gameKey)]);
  return { id, token, expiresAt };
}

export async function listCoscorers(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
): Promise<CoscorerList> {
  await requireOwner(q, kind, gameKey, uid);
  return (await loadCoscorers(q, kind, gameKey))!;
}

/** Whether uid owns this game or count: the only one who may see its co-scorers. */
export async function ownsScored(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
): Promise<boolean> {
  const rows = await q.query<{ uid: string }>(
    `SELECT uid FROM ${KIND[kind].table} WHERE game_key = $1`,
    [gameKey],
  );
  return rows[0]?.uid === uid;
}

/**
 * Who co-scores a game or count and its links still unused, oldest first (the topic
 * coscorers:{kind}:{gameKey}); null when there is no such game or count.
 */
export async function loadCoscorers(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
): Promise<CoscorerList | null> {
  const { table, column } = KIND[kind];
  const thing = await q.query(`SELECT 1 FROM ${table} WHERE game_key = $1`, [gameKey]);
  if (!thing.length) return null;
  const rows = await q.query<{
    id: string;
    uid: string | null;
    display_name: string | null;
    created_at: number | string;
    expires_at: number | string;
    redeemed_at: number | string | null;
  }>(
    `SELECT c.id, c.uid, u.display_name, c.created_at, c.expires_at, c.redeemed_at
       FROM coscorers c LEFT JOIN users u ON u.uid = c.uid
      WHERE c.${column} = $1 AND (c.uid IS NOT NULL OR c.expires_at > $2)
      ORDER BY c.created_at, c.id`,
    [gameKey, Date.now()],
  );
  return {
    coscorers: rows
      .filter((r) => r.uid !== null)
      .map((r) => ({ id: r.id, name: r.display_name, since: Number(r.redeemed_at) })),
    invites: rows
      .filter((r) => r.uid === null)
      .map((r) => ({
        id: r.id,
        createdAt: Number(r.created_at),
        expiresAt: Number(r.expires_at),
      })),
  };
}

/**
 * Revokes a co-scorer (or cancels an unused invitation). It takes effect on their next
 * request, since every scorer's write looks the binding up in its own transaction; their open
 * screens learn it from their scoring list, and their sockets lose the scorers' topics of the
 * game or count at once.
 */
export async function revokeCoscorer(
  q: Queryable,
  hub: Pick<Hub, 'changed' | 'recheck'>,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
  id: string,
): Promise<void> {
  await requireOwner(q, kind, gameKey, uid);
  const rows = await q.query<{ uid: string | null }>(
    `DELETE FROM coscorers WHERE id = $1 AND ${KIND[kind].column} = $2 RETURNING uid`,
    [id, gameKey],
  );
  const row = rows[0];
  if (!row) throw notFound('No co-scorer or invitation with this id');
  await hub.changed(q, [
    coscorersTopic.name(kind, gameKey),
    ...(row.uid ? [myScoringTopic.name(row.uid)] : []),
  ]);
  if (row.uid) await hub.recheck(q, scorerTopics(kind, gameKey), row.uid);
}

/**
 * Binds an invitation to the signed-in user who redeems it. Once bound it is spent: another
 * user gets 409; the same user again (a retry after a lost answer) gets the same answer. An
 * unknown or expired link is 404; the owner's own link, or a second link to a game the user
 * already scores, is refused and stays unused for someone else.
 */
export async function redeemInvite(
  q: Queryable,
  hub: Pick<Hub, 'changed'>,
  token: string,
  uid: string,
): Promise<RedeemAnswer> {
  const rows = await q.query<{
    id: string;
    game_key: string | null;
    playcount_key: string | null;
    uid: string | null;
    expires_at: number | string;
  }>(
    `SELECT id, game_key, playcount_key, uid, expires_at FROM coscorers
      WHERE token_hash = $1 FOR UPDATE`,
    [sha256(token)],
  );
  const invite = rows[0];
  if (!invite) throw notFound('This invitation link is not valid: ask for a new one');
  const kind: ScoredKind = invite.game_key !== null ? 'game' : 'playcount';
  const gameKey = (invite.game_key ?? invite.playcount_key)!;
  const { table, name } = KIND[kind];
  const [thing] = await q.query<{ uid: string; name: string | null }>(
    `SELECT t.uid, ${name} AS name FROM ${table} t WHERE t.game_key = $1`,
    [gameKey],
  );
  const answer = { kind, gameKey, gameName: thing?.name ?? '' };
  if (invite.uid === uid) return answer;
  if (invite.uid !== null) {
    throw new HttpError(409, 'This invitation was already used by someone else');
  }
  if (Number(invite.expires_at) <= Date.now() || !thing) {
    throw notFound('This invitation link has expired: ask for a new one');
  }
  if (thing.uid === uid) {
    throw new HttpError(409, `This is your own ${kind === 'game' ? 'game' : 'play count'}`);
  }
  const bound = await q.query(
    `SELECT 1 FROM coscorers WHERE ${KIND[kind].column} = $1 AND uid = $2`,
    [gameKey, uid],
  );
  if (bound.length) {
    throw new HttpError(409, `You already score this ${kind === 'game' ? 'game' : 'play count'}`);
  }
  await q.query('UPDATE coscorers SET uid = $2, redeemed_at = $3 WHERE id = $1', [
    invite.id,
    uid,
    Date.now(),
  ]);
  await hub.changed(q, [myScoringTopic.name(uid), coscorersTopic.name(kind, gameKey)]);
  return answer;
}

/** The games and counts uid co-scores, most recently joined first. */
export async function loadScoring(q: Queryable, uid: string): Promise<ScoringList> {
  const rows = await q.query<{
    game_key: string | null;
    playcount_key: string | null;
    name: string | null;
    owner_name: string | null;
  }>(
    `SELECT c.game_key, c.playcount_key,
            coalesce(g.fields->>'gameName', p.game->>'gameName') AS name,
            u.display_name AS owner_name
       FROM coscorers c
       LEFT JOIN games g ON g.game_key = c.game_key
       LEFT JOIN play_count_games p ON p.game_key = c.playcount_key
       LEFT JOIN users u ON u.uid = coalesce(g.uid, p.uid)
      WHERE c.uid = $1
      ORDER BY c.redeemed_at DESC, c.id LIMIT 200`,
    [uid],
  );
  const item = (key: string, r: (typeof rows)[number]) => ({
    gameKey: key,
    gameName: r.name ?? '',
    ownerName: r.owner_name,
  });
  return {
    games: rows.filter((r) => r.game_key).map((r) => item(r.game_key!, r)),
    playCounts: rows.filter((r) => r.playcount_key).map((r) => item(r.playcount_key!, r)),
  };
}
