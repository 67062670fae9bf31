import type { SessionUser } from '@sagan/shared/auth';

interface Entry {
  user: SessionUser;
  /** Forgotten from then on: the next request looks the session up again, and waits for it. */
  until: number;
  /** Read again in the background by the first request from then on. */
  renewAt: number;
  renewing: boolean;
}

/** What the cache knows of a session: its user, and whether this request should renew it. */
export interface Remembered {
  user: SessionUser;
  renew: boolean;
}

/**
 * Whom each live session belongs to, remembered for a few seconds: on the embedded database the
 * session's lookup was a round trip on every request, a write's largest share besides the
 * write itself. A session that ends is forgotten at once on the node that ended it and, through
 * the realtime NOTIFY channel, on the others (realtime/session-end.ts). TTL_MS bounds what a
 * lost notice or a change made behind the server's back can leave: a session stays usable at
 * most that long after it ended.
 *
 * A session in use is read again from the store (and its last use written) once past half its
 * time here, in the background, by the request that finds it so: forgotten only when nobody
 * used it in the second half, a busy scorer's request never waits on the lookup.
 */
export class SessionCache {
  static readonly TTL_MS = 10_000;
  private static readonly MAX_ENTRIES = 20_000;
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every forget: a lookup that began before one may have read a session it ended. */
  private epoch = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /**
   * The user of a remembered session, undefined when it must be looked up. `renew` is true for
   * one request at a time once the entry is past half its life: that request renews it.
   */
  get(id: string): Remembered | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const now = this.clock();
    if (entry.until <= now) {
      this.entries.delete(id);
      return undefined;
    }
    const renew = !entry.renewing && entry.renewAt <= now;
    if (renew) entry.renewing = true;
    return { user: entry.user, renew };
  }

  /** Call before reading the store: remember() then keeps nothing an end overtook. */
  lookupStarts(): number {
    return this.epoch;
  }

  remember(id: string, user: SessionUser, expiresAt: number, startedAt: number): void {
    if (startedAt !== this.epoch) return;
    if (this.entries.size >= SessionCache.MAX_ENTRIES) {
      // Oldest first (a Map keeps insertion order): the busiest sessions come right back.
      for (const key of this.entries.keys()) {
        this.entries.delete(key);
        if (this.entries.size < SessionCache.MAX_ENTRIES / 2) break;
      }
    }
    const now = this.clock();
    const until = Math.min(expiresAt, now + SessionCache.TTL_MS);
    // Re-inserted, so that the eviction above counts it as new.
    this.entries.delete(id);
    this.entries.set(id, { user, until, renewAt: now + SessionCache.TTL_MS / 2, renewing: false });
  }

  /** A renewal has ended; one that kept nothing (an end overtook it, the store failed) is retried by the next use. */
  renewEnded(id: string): void {
    const entry = this.entries.get(id);
    if (entry) entry.renewing = false;
  }

  forget(ids: Iterable<string>): void {
    this.epoch++;
    for (const id of ids) this.entries.delete(id);
  }

  /** Forgets everything, e.g. when notices may have been lost. */
  clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}
