import type { FastifyRequest } from 'fastify';
import { idempotencyKeySchema } from '@sagan/shared/idempotency';
import type { PlayCountEventBody } from '@sagan/shared/playcount-events';
import type { Queryable } from '../../db/db.ts';
import { newKey } from '../../lib/keys.ts';

/** Who made an event and under which key: the event row's shape, shared with the game log. */
export interface EventMeta {
  /** The client's Idempotency-Key, or null for a server-made id. */
  key: string | null;
  uid: string;
  /** 'app' for the phone apps' Bearer API, 'web' for a browser session. */
  device: string;
  /** The topic sequence number the client made it against, when it says. */
  baseSeq: number | null;
}

export function eventMeta(req: FastifyRequest, uid: string): EventMeta {
  const parsed = idempotencyKeySchema.safeParse(req.headers['idempotency-key']);
  return {
    key: parsed.success ? parsed.data : null,
    uid,
    device: req.viaBearer ? 'app' : 'web',
    baseSeq: null,
  };
}

/**
 * Appends events to a count's log in one statement and answers their ids: the first takes the
 * request's key (a key used again after it expired gets a server-made id), the others
 * `{first}.{n}`. The one place a play-count event is written.
 */
export async function appendEvents(
  q: Queryable,
  gameKey: string,
  meta: EventMeta,
  bodies: readonly PlayCountEventBody[],
): Promise<string[]> {
  if (!bodies.length) return [];
  let first = meta.key ?? newKey();
  if (meta.key) {
    const taken = await q.query(
      'SELECT 1 FROM playcount_events WHERE game_key = $1 AND event_id = $2',
      [gameKey, meta.key],
    );
    if (taken.length) first = newKey();
  }
  const ids = bodies.map((_, i) => (i === 0 ? first : `${first}.${i}`));
  await q.query(
    `INSERT INTO playcount_events (game_key, event_id, uid, device, base_seq, body)
     SELECT $1, e.id, $3, $4, $5, e.body
       FROM unnest($2::text[], $6::jsonb[]) WITH ORDINALITY AS e(id, body, n)
      ORDER BY e.n`,
    [gameKey, ids, meta.uid, meta.device, meta.baseSeq, bodies.map((b) => JSON.stringify(b))],
  );
  return ids;
}
