import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/db.ts';
import type { Hub } from '../realtime/hub.ts';
import { applyOnce } from './idempotency.ts';

// DESIGN §10: the one write helper of the writes that are not an event log's (team sheets,
// tags, comments, messages, bookmarks, follows). It follows writeEvent's order: authorization
// (the feature's guard, first, inside the transaction, so what it checked holds until
// commit), idempotency (the request's Idempotency-Key in the key table, the answer kept with
// it), the transaction, and the notification of the topics the write touched, named by the
// feature's audienceOf and sent at commit. A write has no say in any of these steps but its own.

/** What a write needs: the database and the hub to name the topics it touched. */
export interface ChangeWriter {
  db: Db;
  hub: Pick<Hub, 'changed'>;
}

/** What a write did: its answer (a replay gets it again) and the topics it touched. */
interface Changed<T> {
  answer: T;
  touched: readonly string[];
}

export interface Change<G, T> {
  /** Who may: the row the writer may change, or a refusal (HttpError). */
  guard: (q: Queryable) => Promise<G>;
  /** The write itself, on what the guard let through. */
  write: (q: Queryable, guarded: G) => Promise<Changed<T>>;
  /** A form's createKey from a client older than the Idempotency-Key (team sheets' creates). */
  createKey?: string | undefined;
}

/** Applies one change, once per Idempotency-Key; says whether the answer is a replay's. */
export async function applyChange<G, T>(
  app: ChangeWriter,
  req: FastifyRequest,
  change: Change<G, T>,
): Promise<{ answer: T; replayed: boolean }> {
  return applyOnce(
    app.db,
    req,
    async (q) => {
      const guarded = await change.guard(q);
      const { answer, touched } = await change.write(q, guarded);
      if (touched.length) await app.hub.changed(q, [...touched]);
      return answer;
    },
    change.createKey,
  );
}

/** applyChange, answering only the answer. */
export async function writeChange<G, T>(
  app: ChangeWriter,
  req: FastifyRequest,
  change: Change<G, T>,
): Promise<T> {
  return (await applyChange(app, req, change)).answer;
}
