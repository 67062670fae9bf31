import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { idempotencyKeySchema } from '@sagan/shared/idempotency';
import type { Db, Queryable } from '../db/db.ts';
import { badRequest, HttpError, unauthorized } from './http-errors.ts';

/** Keys are remembered this long (DESIGN §9). */
const KEEP = '24 hours';
/** Expired keys are swept at most this often per node, after a keyed write, off its path. */
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 5000;

/** The key was already used within 24 h: this transaction's effects must not stay. */
class AlreadyApplied extends Error {}

const lastSweep = new WeakMap<object, number>();

/** A request's key in the key table, and what it was used for. */
interface Keyed {
  key: string;
  fingerprint: string;
}

/**
 * The request's Idempotency-Key, or the body's createKey of clients from before it (team
 * sheets' creates), kept under the same table. A createKey always named one form's create,
 * whatever the form held by the retry, so its fingerprint leaves the body out: the same
 * createKey answers the first answer, as it always did. Header keys cannot contain ':', so
 * the two never meet.
 */
function keyOf(req: FastifyRequest, createKey: string | undefined): Keyed | null {
  const header = req.headers['idempotency-key'];
  if (header !== undefined) {
    const parsed = idempotencyKeySchema.safeParse(header);
    if (!parsed.success) throw badRequest(`Invalid request: ${parsed.error.issues[0]?.message}`);
    return { key: parsed.data, fingerprint: fingerprintOf(req) };
  }
  if (createKey === undefined) return null;
  return { key: `createKey:${createKey}`, fingerprint: fingerprintOf(req, false) };
}

/**
 * Runs a write's transaction, for lib/write.ts's applyChange (no route calls it). Without an
 * `Idempotency-Key` header it is just `db.tx(write)`. With one (DESIGN §9), the write is applied at most once per signed-in user and
 * key for 24 h: a replay changes nothing and answers the first answer's body; the same key
 * with another request (method, route, parameters or body) is refused with 422.
 *
 * The key is stored by one insert at the end of the write's own transaction, so a write and
 * its key commit together or not at all. Two identical requests racing both run the write, but
 * the second one's insert waits for the first to commit, conflicts, and rolls its whole
 * transaction back: never two effects. A write that fails is not remembered (it changed
 * nothing), so a refused request (400, 409...) may be sent again, even with the same key. When
 * a keyed write fails, the key is looked up: a replay whose write would now be refused (a
 * delete of what it deleted, a stale base it itself made stale) still gets the first answer.
 *
 * A route that writes through it declares `headers: idempotentHeadersSchema` in its schema, so the
 * header is validated and documented like any input.
 *
 * Says whether the answer is a replay's (a create then answers 200, not 201).
 */
export async function applyOnce<T>(
  db: Db,
  req: FastifyRequest,
  write: (q: Queryable) => Promise<T>,
  createKey?: string,
): Promise<{ answer: T; replayed: boolean }> {
  const keyed = keyOf(req, createKey);
  if (!keyed) return { answer: await db.tx(write), replayed: false };
  if (!req.user) throw unauthorized();
  const { key, fingerprint } = keyed;
  const { uid } = req.user;
  try {
    const answer = await db.tx(async (q) => {
      const result = await write(q);
      const stored = await q.query(
        `INSERT INTO idempotency_keys (uid, key, fingerprint, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (uid, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, body = EXCLUDED.body,
               created_at = EXCLUDED.created_at
           WHERE idempotency_keys.created_at < EXCLUDED.created_at - interval '${KEEP}'
         RETURNING 1`,
        [uid, key, fingerprint, JSON.stringify(result ?? null)],
      );
      if (!stored.length) throw new AlreadyApplied();
      return result;
    });
    sweepLater(db, req);
    return { answer, replayed: false };
  } catch (err) {
    const rows = await db.query<{ fingerprint: string; body: unknown }>(
      `SELECT fingerprint, body FROM idempotency_keys
       WHERE uid = $1 AND key = $2 AND created_at >= now() - interval '${KEEP}'`,
      [uid, key],
    );
    const first = rows[0];
    if (first && first.fingerprint !== fingerprint) {
      throw new HttpError(
        422,
        'This Idempotency-Key was already used for another request: make a new key per change',
      );
    }
    if (first) return { answer: first.body as T, replayed: true };
    if (err instanceof AlreadyApplied) {
      // Only when the first request's key expired between our insert and the lookup.
      throw new HttpError(409, 'This request is being applied: send it again');
    }
    throw err;
  }
}

/** What a key was used for: method, route pattern, parameters and body, in a stable form. */
export function fingerprintOf(req: FastifyRequest, withBody = true): string {
  const body = withBody ? (req.body ?? null) : null;
  const what = [req.method, req.routeOptions.url ?? req.url, req.params ?? null, body];
  return crypto.createHash('sha256').update(stableJson(what)).digest('base64url');
}

function stableJson(value: unknown): string {
  // A raw image body: hashed as bytes, not walked as an object of a million indices.
  if (Buffer.isBuffer(value)) return JSON.stringify(value.toString('base64'));
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Deletes expired keys now and then, in bounded batches, after the answer is on its way. */
function sweepLater(db: Db, req: FastifyRequest): void {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  db.query(
    `DELETE FROM idempotency_keys WHERE (uid, key) IN (
       SELECT uid, key FROM idempotency_keys
       WHERE created_at < now() - interval '${KEEP}' LIMIT ${SWEEP_BATCH})`,
  ).catch((err: unknown) => req.log.warn({ err }, 'idempotency: sweeping expired keys failed'));
}
