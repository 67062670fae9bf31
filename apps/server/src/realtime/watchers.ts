import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/db.ts';
import type { Hub } from './hub.ts';

/** How often a node writes its counts (and shows it is alive). */
const SYNC_MS = 1000;
/** A node not seen for this long is left out of the sums, then removed. */
const NODE_TIMEOUT_SECONDS = 10;

/**
 * Watchers of a topic family across every node (DESIGN §4: countScoreboardWatchers): each node
 * writes the counts of the topics it serves to `node_watchers` every SYNC_MS, only the ones that
 * changed, and any node answers its own count from memory plus the other live nodes' rows. On
 * PGlite there is one node, so memory is the whole answer.
 */
export class NodeWatchers {
  readonly nodeId = crypto.randomBytes(9).toString('base64url');
  private timer: NodeJS.Timeout | null = null;
  private synced = new Map<string, number>();
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly hub: Hub,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get shared(): boolean {
    return this.db.kind === 'postgres';
  }

  async start(): Promise<void> {
    if (!this.shared) return;
    await this.sync();
    this.timer = setInterval(() => {
      this.syncing ??= this.sync().finally(() => (this.syncing = null));
    }, SYNC_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.shared) return;
    await this.syncing;
    // This node's viewers are gone: its counts leave the sums at once.
    await this.db
      .query('DELETE FROM nodes WHERE node_id = $1', [this.nodeId])
      .catch((err: unknown) => this.log.warn({ err }, 'realtime: could not remove node counts'));
  }

  /** Watchers of topic on every live node. */
  async total(topic: string): Promise<number> {
    const own = this.hub.subscriberCount(topic);
    if (!this.shared) return own;
    const rows = await this.db.query<{ n: number | string | null }>(
      `SELECT sum(w.watchers) AS n FROM node_watchers w JOIN nodes n ON n.node_id = w.node_id
       WHERE w.topic = $1 AND w.node_id <> $2
         AND n.seen_at > now() - make_interval(secs => $3)`,
      [topic, this.nodeId, NODE_TIMEOUT_SECONDS],
    );
    return own + Number(rows[0]?.n ?? 0);
  }

  private async sync(): Promise<void> {
    const counts = this.hub.subscriberCounts(this.prefix);
    const changed: Array<[string, number]> = [];
    for (const [topic, n] of counts) if (this.synced.get(topic) !== n) changed.push([topic, n]);
    for (const topic of this.synced.keys()) if (!counts.has(topic)) changed.push([topic, 0]);
    try {
      await this.db.tx(async (q) => {
        await q.query(
          `INSERT INTO nodes (node_id, seen_at) VALUES ($1, now())
           ON CONFLICT (node_id) DO UPDATE SET seen_at = now()`,
          [this.nodeId],
        );
        if (changed.length) {
          const topics = changed.map(([t]) => t);
          const ns = changed.map(([, n]) => n);
          await q.query(
            `DELETE FROM node_watchers WHERE node_id = $1 AND topic = ANY($2::text[])`,
            [this.nodeId, topics.filter((_, i) => ns[i] === 0)],
          );
          await q.query(
            `INSERT INTO node_watchers (node_id, topic, watchers)
             SELECT $1, t, n FROM unnest($2::text[], $3::int[]) AS x(t, n) WHERE n > 0
             ON CONFLICT (node_id, topic) DO UPDATE SET watchers = EXCLUDED.watchers`,
            [this.nodeId, topics, ns],
          );
        }
        // Nodes that stopped without saying so (killed, cut off): their rows go with them.
        await q.query(`DELETE FROM nodes WHERE seen_at < now() - make_interval(secs => $1 * 3)`, [
          NODE_TIMEOUT_SECONDS,
        ]);
      });
      this.synced = counts;
    } catch (err) {
      // The next sync sends the difference again; meanwhile other nodes see the last counts.
      this.log.warn({ err }, 'realtime: watcher counts not written');
    }
  }
}
