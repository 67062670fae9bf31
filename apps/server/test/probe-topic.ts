import type { FastifyInstance } from 'fastify';
import type { TopicDef } from '../src/realtime/hub.ts';
import type { Db } from '../src/db/db.ts';

// A topic of the tests' own, `probe:<k>` over a table of its own, so realtime tests cover the
// mechanism (sequence numbers, resume, fan-out, NOTIFY) apart from any feature.

/** Makes the probe's table; run it on a fresh database before the app is built on it. */
export const createProbeTable = (db: Db) =>
  db.query('CREATE TABLE probe_values (k text PRIMARY KEY, v integer NOT NULL)');

/** Registers `probe:<k>` on the app's hub; its state is `{ v }`, or null with no row. */
export function registerProbeTopic(
  app: FastifyInstance,
  authorize: TopicDef['authorize'] = () => true,
): void {
  app.hub.register({
    topic: { prefix: 'probe', private: false, coalesce: false },
    authorize,
    load: async (q, arg) =>
      (await q.query<{ v: number }>('SELECT v FROM probe_values WHERE k = $1', [arg]))[0] ?? null,
  });
}

/** Writes `probe:<k>` = v and announces the change, in one transaction. */
export async function setProbe(app: FastifyInstance, k: string, v: number): Promise<void> {
  await app.db.tx(async (q) => {
    await q.query(
      'INSERT INTO probe_values (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = $2',
      [k, v],
    );
    await app.hub.changed(q, [`probe:${k}`]);
  });
}
