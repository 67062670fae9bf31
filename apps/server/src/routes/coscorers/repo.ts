import crypto from 'node:crypto';
import {
  INVITE_TTL_MS,
  type CoscorerList,
  type Invite,
  type ScoredKind,
  type ScoringList,
} from '@sagan/shared/coscorers';
import type { Queryable } from '../../db/db.ts';
import { newKey, sha256 } from '../../lib/keys.ts';

// Co-scorers (DESIGN §10): invitations made by the owner of a game or a play count, redeemed
// once by a signed-in user and then bound to that account until the owner revokes them. The
// guard that reads the bindings is lib/game-guard.ts; who may invite, revoke and redeem is
// policy.ts's.

/** The column of coscorers naming the thing of each kind, and its table. */
const KIND = {
  game: { column: 'game_key', table: 'games', name: "t.fields->>'gameName'" },
  playcount: { column: 'playcount_key', table: 'play_count_games', name: "t.game->>'gameName'" },
} as const;

/** The owner of a game or a count, its row locked for the write; null when there is none. */
export async function lockOwner(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
): Promise<string | null> {
  const rows = await q.query<{ uid: string }>(
    `SELECT uid FROM ${KIND[kind].table} WHERE game_key = $1 FOR NO KEY UPDATE`,
    [gameKey],
  );
  return rows[0]?.uid ?? null;
}

/** A new invitation link's secret; the database keeps only its hash. */
const newToken = () => crypto.randomBytes(32).toString('base64url');

/** A new invitation to score the game or count, valid for INVITE_TTL_MS. */
export async function insertInvite(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
): Promise<Omit<Invite, 'link' | 'qr'>> {
  const token = newToken();
  const id = newKey();
  const now = Date.now();
  const expiresAt = now + INVITE_TTL_MS;
  await q.query(
    `INSERT INTO coscorers (id, ${KIND[kind].column}, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [id, gameKey, sha256(token), now, expiresAt],
  );
  return { id, token, expiresAt };
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
 * Deletes a co-scorer's binding (or an unused invitation) of the game or count; answers whom
 * it bound (null for an invitation), or undefined when there is no such row.
 */
export async function deleteCoscorer(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
  id: string,
): Promise<{ uid: string | null } | undefined> {
  const rows = await q.query<{ uid: string | null }>(
    `DELETE FROM coscorers WHERE id = $1 AND ${KIND[kind].column} = $2 RETURNING uid`,
    [id, gameKey],
  );
  return rows[0];
}

/** An invitation by its token, locked for its redemption; null for an unknown token. */
export async function lockInvite(q: Queryable, token: string) {
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
  if (!invite) return null;
  const kind: ScoredKind = invite.game_key !== null ? 'game' : 'playcount';
  return {
    id: invite.id,
    kind,
    gameKey: (invite.game_key ?? invite.playcount_key)!,
    uid: invite.uid,
    expiresAt: Number(invite.expires_at),
  };
}

/** The owner and name of a game or a count; null when there is none. */
export async function findScored(q: Queryable, kind: ScoredKind, gameKey: string) {
  const { table, name } = KIND[kind];
  const [thing] = await q.query<{ uid: string; name: string | null }>(
    `SELECT t.uid, ${name} AS name FROM ${table} t WHERE t.game_key = $1`,
    [gameKey],
  );
  return thing ?? null;
}

/** Whether uid already co-scores the game or count. */
export async function isBound(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
): Promise<boolean> {
  const bound = await q.query(
    `SELECT 1 FROM coscorers WHERE ${KIND[kind].column} = $1 AND uid = $2`,
    [gameKey, uid],
  );
  return bound.length > 0;
}

/** Binds an invitation to uid, who scores from now on. */
export async function bindInvite(q: Queryable, id: string, uid: string): Promise<void> {
  await q.query('UPDATE coscorers SET uid = $2, redeemed_at = $3 WHERE id = $1', [
    id,
    uid,
    Date.now(),
  ]);
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
