import type { Db } from '../db/db.ts';

declare module 'fastify' {
  interface FastifyInstance {
    writeLimitCounts: SharedLimitCounts;
  }
}

/**
 * A store for @fastify/rate-limit whose counts are shared by every node on the database (the
 * stock store counts per process: two nodes let one user make twice the documented writes).
 *
 * A caller's window opens with their first counted write on any node (as the stock store's
 * does) and is kept in the database, so every node agrees on when it ends. A node claims a slice of a caller's limit for the window from the database (a tenth of it,
 * at least one write) and spends it locally: a write costs a round trip only once per slice,
 * and once the database has no more to give, the node refuses locally for the rest of the
 * window without asking again. Across the nodes at most the limit is granted; a slice another
 * node claimed and did not spend is lost to the caller for that window, so with N nodes a
 * caller may be refused up to (N - 1) slices short of the limit.
 */

interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

interface Slice {
  windowEndsAt: number;
  granted: number;
  used: number;
  /** The database had no more of the limit to give for this window. */
  exhausted: boolean;
  claiming: Promise<void> | null;
}

type Callback = (err: Error | null, res: { current: number; ttl: number }) => void;

/** Slices kept per node at most; those of ended windows go first. */
const MAX_SLICES = 50_000;
/** How often (ms) a node deletes the database rows of ended windows. */
const CLEANUP_MS = 60_000;

export interface SharedLimitCounts {
  /** Round trips to the database (slice claims), and writes decided without one. */
  claims: number;
  local: number;
}

export function sharedLimitStore(getDb: () => Db, counts: SharedLimitCounts) {
  const slices = new Map<string, Slice>();
  let lastCleanup = 0;

  async function claim(
    key: string,
    slice: Slice,
    want: number,
    max: number,
    timeWindow: number,
  ): Promise<void> {
    counts.claims++;
    const db = getDb();
    const now = Date.now();
    const rows = await db.query<{ claimed: number; window_ends_at: number }>(
      `INSERT INTO write_limit_windows AS w (limit_key, window_ends_at, claimed)
       VALUES ($1, $2, $3)
       ON CONFLICT (limit_key) DO UPDATE SET
         claimed = CASE WHEN w.window_ends_at <= $5 THEN $3 ELSE w.claimed + $3 END,
         window_ends_at = CASE WHEN w.window_ends_at <= $5 THEN $2 ELSE w.window_ends_at END
       WHERE w.window_ends_at <= $5 OR w.claimed < $4
       RETURNING claimed, window_ends_at`,
      [key, now + timeWindow, want, max, now],
    );
    const row = rows[0];
    if (row) {
      // The row may pass max by less than a slice: only what was below max is granted.
      const got = Math.max(0, Math.min(want, max - (row.claimed - want)));
      slice.granted += got;
      slice.windowEndsAt = Number(row.window_ends_at);
      if (got < want) slice.exhausted = true;
    } else {
      // Nothing left in a window another node opened: this node learns when it ends.
      slice.exhausted = true;
      const [open] = await db.query<{ window_ends_at: number }>(
        'SELECT window_ends_at FROM write_limit_windows WHERE limit_key = $1',
        [key],
      );
      if (open) slice.windowEndsAt = Number(open.window_ends_at);
    }
    if (now - lastCleanup > CLEANUP_MS) {
      lastCleanup = now;
      await db.query('DELETE FROM write_limit_windows WHERE window_ends_at < $1', [now]);
    }
  }

  async function take(
    key: string,
    slice: Slice,
    max: number,
    timeWindow: number,
  ): Promise<boolean> {
    for (;;) {
      if (slice.used < slice.granted) {
        slice.used++;
        return true;
      }
      if (slice.exhausted) return false;
      slice.claiming ??= claim(
        key,
        slice,
        Math.max(1, Math.ceil(max / 10)),
        max,
        timeWindow,
      ).finally(() => {
        slice.claiming = null;
      });
      await slice.claiming;
    }
  }

  function forget(now: number) {
    for (const [key, slice] of slices) if (slice.windowEndsAt <= now) slices.delete(key);
    // Still full of live windows: the oldest entries go (their callers' next write claims anew).
    for (const key of slices.keys()) {
      if (slices.size < MAX_SLICES) break;
      slices.delete(key);
    }
  }

  class RouteStore {
    constructor(private readonly route: string) {}

    incr(callerKey: string, cb: Callback, timeWindow: number, max: number): void {
      const now = Date.now();
      const key = `${this.route} ${callerKey}`;
      let slice = slices.get(key);
      if (!slice || slice.windowEndsAt <= now) {
        if (slices.size >= MAX_SLICES) forget(now);
        // Until the database says otherwise, the window is one this write opens.
        slice = {
          windowEndsAt: now + timeWindow,
          granted: 0,
          used: 0,
          exhausted: false,
          claiming: null,
        };
        slices.set(key, slice);
      }
      if (slice.used < slice.granted || slice.exhausted) counts.local++;
      const s = slice;
      take(key, s, max, timeWindow).then(
        (ok) =>
          cb(null, {
            current: ok ? Math.min(s.used, max) : max + 1,
            ttl: Math.max(0, s.windowEndsAt - Date.now()),
          }),
        (err: unknown) =>
          cb(err instanceof Error ? err : new Error(String(err)), { current: 0, ttl: 0 }),
      );
    }

    /**
     * One store per limited route. The plugin passes the route's merged limit options, whose
     * `routeInfo` (not in its published types) is the route itself.
     */
    child(params: object): RouteStore {
      const { method, url } =
        ('routeInfo' in params ? (params as RouteParams).routeInfo : {}) ?? {};
      return new RouteStore(`${String(method ?? '')} ${url ?? ''}`);
    }
  }

  // @fastify/rate-limit makes the plugin-wide store with `new`, then one child per route.
  return class SharedLimitStore extends RouteStore {
    constructor() {
      super('');
    }
  };
}
