import type { SessionUser } from '@sagan/shared/auth';

/**
 * Whom each live session belongs to, remembered for a few seconds: on the embedded database the
 * session's lookup was a round trip on every request, a write's largest share besides the
 * write itself. A session that ends is forgotten at once on the node that ended it and, through
 * the realtime NOTIFY channel, on the others (realtime/session-end.ts). TTL_MS bounds what a
 * lost notice or a change made behind the server's back can leave: a session stays usable at
 * most that long after it ended; sessions in use are still read (and their last use written)
 * from the store every TTL_MS.
 */
export class SessionCache {
  static readonly TTL_MS = 10_000;
  private static readonly MAX_ENTRIES = 20_000;
  private readonly entries = new Map<string, { user: SessionUser; until: number }>();
  /** Bumped by every forget: a lookup that began before one may have read a session it ended. */
  private epoch = 0;

  /** The user of a remembered session; undefined when it must be looked up. */
  get(id: string, now = Date.now()): SessionUser | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.until > now) return entry.user;
    this.entries.delete(id);
    return undefined;
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
    const until = Math.min(expiresAt, Date.now() + SessionCache.TTL_MS);
    this.entries.set(id, { user, until });
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
