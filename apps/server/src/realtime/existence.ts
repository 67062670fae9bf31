import type { Queryable } from '../db/db.ts';

/** The table, and its indexed key column, a topic's argument names a row of. */
export interface KeyedBy {
  table: string;
  column: string;
}

export interface Existence {
  exists: boolean;
  /** The topic's sequence number in the same snapshot (0 when it never changed). */
  seq: number;
}

interface Pending {
  topic: string;
  arg: string;
  keyedBy: KeyedBy;
  waiters: Array<{ resolve(e: Existence): void; reject(err: unknown): void }>;
}

const BATCH = 1000;

/**
 * Whether topics' subjects exist, asked in batches: one query at a time, and every question
 * that arrives meanwhile joins the next one. A thousand subscriptions to made-up keys then cost
 * one indexed join instead of a thousand reads, and never hold more than one database
 * connection, so other requests are not queued behind them.
 */
export class ExistenceBatcher {
  private readonly queue = new Map<string, Pending>();
  private running = false;

  constructor(private readonly db: Queryable) {}

  check(topic: string, arg: string, keyedBy: KeyedBy): Promise<Existence> {
    return new Promise((resolve, reject) => {
      let pending = this.queue.get(topic);
      if (!pending) {
        pending = { topic, arg, keyedBy, waiters: [] };
        this.queue.set(topic, pending);
      }
      pending.waiters.push({ resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.size) {
        const batch: Pending[] = [];
        for (const pending of this.queue.values()) {
          batch.push(pending);
          this.queue.delete(pending.topic);
          if (batch.length === BATCH) break;
        }
        const byTable = new Map<string, Pending[]>();
        for (const p of batch) {
          const k = `${p.keyedBy.table}.${p.keyedBy.column}`;
          byTable.set(k, [...(byTable.get(k) ?? []), p]);
        }
        for (const group of byTable.values()) await this.ask(group);
      }
    } finally {
      this.running = false;
    }
  }

  private async ask(group: Pending[]): Promise<void> {
    const { table, column } = group[0]!.keyedBy;
    try {
      // One statement is one snapshot: each number labels the absence (or presence) it saw.
      const rows = await this.db.query<{ topic: string; found: boolean; seq: number | string }>(
        `SELECT a.topic, x.${column} IS NOT NULL AS found, coalesce(s.seq, 0) AS seq
         FROM unnest($1::text[], $2::text[]) AS a(topic, arg)
         LEFT JOIN ${table} x ON x.${column} = a.arg
         LEFT JOIN topic_seq s ON s.topic = a.topic`,
        [group.map((p) => p.topic), group.map((p) => p.arg)],
      );
      const answers = new Map(rows.map((r) => [r.topic, r]));
      for (const p of group) {
        const row = answers.get(p.topic);
        const existence = { exists: !!row?.found, seq: Number(row?.seq ?? 0) };
        for (const w of p.waiters) w.resolve(existence);
      }
    } catch (err) {
      for (const p of group) for (const w of p.waiters) w.reject(err);
    }
  }
}
