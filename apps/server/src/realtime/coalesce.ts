import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/db.ts';

/** How long a refused topic waits at least before it is tried again (clock skew, races). */
const MIN_RETRY_MS = 20;

/**
 * Sequence numbers of aggregate topics (DESIGN §9: `games:recent`, the tag lists, lists of
 * games), bumped outside the writers' transactions and at most once per interval per topic
 * across every node.
 *
 * A writer's change marks its aggregate topics dirty once it has committed; the node then
 * bumps them in one statement of its own, which also queues the NOTIFY. The bump is gated in
 * the database (`topic_seq.flushed_at`): a topic bumped by any node less than an interval ago
 * is refused and tried again when its interval is over. So every node's viewers get at most one
 * frame per interval per topic, and every committed change is followed by a bump: the last
 * bump comes after the last change, so every node reloads the last state under one number.
 *
 * Writers no longer lock the one `games:recent` row (every score change used to), and a burst
 * of 100 writes is one bump, one NOTIFY and one reload per node instead of 100.
 */
export class Coalescer {
  /** Dirty topics, by the time (Date.now()) before which this node will not try them. */
  private readonly dirty = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private nextAt = Infinity;
  private flushing: Promise<void> | null = null;
  private stopped = false;
  /**
   * When this node's last bump that numbered anything ended (Date.now()). Its next bump is an
   * interval later at the earliest, for every dirty topic at once: one statement an interval
   * under a steady stream of writes. Tried each on its own clock, topics changed at different
   * moments drifted apart, and each cost a refused try and a bump of its own every interval.
   */
  private lastBumpAt = -Infinity;
  /**
   * Topics this node bumped, tries the gate refused, and the bump statements run; tests and
   * benchmarks read them.
   */
  readonly counts = { bumped: 0, refused: 0, statements: 0 };

  constructor(
    private readonly db: Pick<Db, 'tx'>,
    private readonly intervalMs: number,
    /** Sends the NOTIFY for bumped topics, in the statement's own transaction. */
    private readonly notify: (q: Queryable, bumped: Array<[string, number]>) => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** These topics changed (the change has committed): bump each within an interval. */
  mark(topics: Iterable<string>): void {
    if (this.stopped) return;
    const now = Date.now();
    for (const topic of topics) if (!this.dirty.has(topic)) this.dirty.set(topic, now);
    this.schedule();
  }

  /** Bumps everything still dirty now, ignoring this node's own waits (at shutdown). */
  async drain(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    // A topic another node bumped within the interval is tried again once that is over (at
    // most twice): the other node's bump may have come before this node's last change.
    for (let attempt = 0; this.dirty.size && attempt < 3; attempt++) {
      const wait = this.nextDue() - Date.now();
      if (attempt && wait > 0) await new Promise((r) => setTimeout(r, wait));
      await this.flush(attempt ? Date.now() : Infinity);
    }
  }

  /**
   * Resolves once every topic marked so far has its number (or has been given up on at a
   * shutdown), so a reader of `topic_seq` sees all of them; nothing on a request's path waits
   * on this.
   */
  async settled(): Promise<void> {
    while (this.flushing || (this.dirty.size && !this.stopped)) {
      if (this.flushing) await this.flushing;
      else await new Promise((r) => setTimeout(r, Math.max(1, this.nextBumpAt() - Date.now())));
    }
  }

  /** When the first dirty topic may be tried (Infinity when none is dirty). */
  private nextDue(): number {
    return Math.min(...this.dirty.values());
  }

  /** When the next bump is due: the first dirty topic's time, an interval after the last. */
  private nextBumpAt(): number {
    return Math.max(this.nextDue(), this.lastBumpAt + this.intervalMs);
  }

  private schedule(): void {
    if (this.stopped || this.flushing || !this.dirty.size) return;
    const due = this.nextBumpAt();
    if (this.timer && due >= this.nextAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextAt = due;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.nextAt = Infinity;
        this.flushing = this.flush(Date.now()).finally(() => {
          this.flushing = null;
          this.schedule();
        });
      },
      Math.max(0, due - Date.now()),
    );
    this.timer.unref();
  }

  /** One gated bump of every dirty topic due by `now`. */
  private async flush(now: number): Promise<void> {
    const due = [...this.dirty].filter(([, at]) => at <= now).map(([t]) => t);
    if (!due.length) return;
    for (const t of due) this.dirty.delete(t);
    try {
      const rows = await this.bump(due);
      if (rows.some((r) => r.seq !== null)) this.lastBumpAt = Date.now();
      for (const r of rows) {
        if (r.seq !== null) {
          this.counts.bumped++;
          continue;
        }
        // Bumped by some node less than an interval ago, maybe before this change committed:
        // again once that interval is over.
        this.counts.refused++;
        const wait = Math.max(MIN_RETRY_MS, Math.min(this.intervalMs, Number(r.wait_ms)));
        const at = Date.now() + wait;
        this.dirty.set(r.topic, Math.min(this.dirty.get(r.topic) ?? at, at));
      }
    } catch (err) {
      this.log.error({ err, topics: due.length }, 'realtime: aggregate topic bump failed');
      const at = Date.now() + this.intervalMs;
      for (const t of due) if (!this.dirty.has(t)) this.dirty.set(t, at);
    }
  }

  private bump(topics: string[]) {
    this.counts.statements++;
    return this.db.tx((q) => this.bumpIn(q, topics));
  }

  private async bumpIn(q: Queryable, topics: string[]) {
    // The gate and the bump in one statement: a row locked by another node's bump is re-read
    // after that commits (read committed), so two nodes never both bump within an interval.
    const rows = await q.query<{ topic: string; seq: number | null; wait_ms: number | null }>(
      `WITH want AS (SELECT DISTINCT t AS topic FROM unnest($1::text[]) AS t),
       bumped AS (
         INSERT INTO topic_seq AS s (topic, seq, flushed_at)
         SELECT topic, 1, clock_timestamp() FROM want
         ON CONFLICT (topic) DO UPDATE SET seq = s.seq + 1, flushed_at = clock_timestamp()
         WHERE s.flushed_at IS NULL
            OR s.flushed_at <= clock_timestamp() - make_interval(secs => $2::float8 / 1000)
         RETURNING s.topic, s.seq
       )
       SELECT w.topic, b.seq,
         CASE WHEN b.seq IS NULL THEN
           (extract(epoch FROM s.flushed_at - clock_timestamp()) * 1000 + $2::float8)::float8
         END AS wait_ms
       FROM want w LEFT JOIN bumped b ON b.topic = w.topic
       LEFT JOIN topic_seq s ON s.topic = w.topic`,
      [topics, this.intervalMs],
    );
    const bumped = rows
      .filter((r) => r.seq !== null)
      .map((r): [string, number] => [r.topic, Number(r.seq)]);
    if (bumped.length) await this.notify(q, bumped);
    return rows;
  }
}
