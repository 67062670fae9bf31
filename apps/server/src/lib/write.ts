import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/db.ts';
import type { Hub } from '../realtime/hub.ts';
import { applyOnce } from './idempotency.ts';

// DESIGN §10: the one write helper of the writes that are not an event log's (team sheets,
// a game's creation, deletion and clock, tags, comments, messages, bookmarks, follows,
// co-scorers). It follows writeEvent's order: authorization (the feature's guard, first,
// inside the transaction, so what it checked holds until commit), idempotency (the request's
// Idempotency-Key in the key table, the answer kept with it), the transaction, and the
// notification of the topics the write touched, named by the feature's audienceOf and sent at
// commit. A write has no say in any of these steps but its own.

/** What a write needs: the database and the hub to name the topics it touched. */
export interface ChangeWriter {
  db: Db;
  hub: Pick<Hub, 'changedSeqs' | 'recheck'>;
}

/**
 * What a write did: the topics it touched, and its answer (a replay gets it again), or how
 * to build the answer from the touched topics' new sequence numbers (a client then waits
 * for the frame at that seq).
 */
type Changed<T> = {
  touched: readonly string[];
  /** What changed in a touched topic's state, when the write knows it (hub.changed's merges). */
  merges?: Record<string, Record<string, unknown>>;
  /** Topics some of whose subscribers (uid's only, if given) may have lost the right to them. */
  revoked?: { topics: readonly string[]; uid?: string };
} & ({ answer: T } | { answerAt: (seqs: Record<string, number>) => T });

export interface Change<G, T> {
  /** Who may: the row the writer may change, or a refusal (HttpError). */
  guard: (q: Queryable) => Promise<G>;
  /** The write itself, on what the guard let through. */
  write: (q: Queryable, guarded: G) => Promise<Changed<T>>;
  /** A form's createKey from a client older than the Idempotency-Key (team sheets' creates). */
  createKey?: string | undefined;
}

/**
 * Applies one change, once per Idempotency-Key; says whether the answer is a replay's. Without
 * a request (the demo's writes) there is no key: the change runs once, in one transaction.
 */
export async function applyChange<G, T>(
  app: ChangeWriter,
  req: FastifyRequest | null,
  change: Change<G, T>,
): Promise<{ answer: T; replayed: boolean }> {
  const run = async (q: Queryable): Promise<T> => {
    const guarded = await change.guard(q);
    const changed = await change.write(q, guarded);
    const seqs = changed.touched.length
      ? await app.hub.changedSeqs(q, [...changed.touched], changed.merges)
      : {};
    const { revoked } = changed;
    if (revoked?.topics.length) await app.hub.recheck(q, [...revoked.topics], revoked.uid);
    return 'answer' in changed ? changed.answer : changed.answerAt(seqs);
  };
  if (!req) return { answer: await app.db.tx(run), replayed: false };
  return applyOnce(app.db, req, run, change.createKey);
}

/** applyChange, answering only the answer. */
export async function writeChange<G, T>(
  app: ChangeWriter,
  req: FastifyRequest | null,
  change: Change<G, T>,
): Promise<T> {
  return (await applyChange(app, req, change)).answer;
}
