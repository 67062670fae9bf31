import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/db.ts';
import { liveSessionIds } from '../auth/sessions.ts';
import { SessionCache } from '../auth/session-cache.ts';
import type { Hub } from './hub.ts';

const NOTICE = 'sessions-ended';
/** Users who signed out everywhere, whose Bearer sockets end too. */
const BEARER_NOTICE = 'bearers-ended';
/** How often each node checks the sessions of its open sockets (expiry, idle expiry, lost NOTIFY). */
const SESSION_SWEEP_MS = 2000;
// NOTIFY payloads are limited to 8000 bytes: 100 session ids (64 hex + quotes + comma) fit.
const NOTIFY_CHUNK = 100;

/**
 * Ends the realtime identity of sockets whose session ended, on every node. A sign-out reaches
 * this node's sockets at once and the other nodes through NOTIFY; sessions that end by
 * themselves (absolute or idle expiry), or whose NOTIFY was lost while a node's LISTEN
 * connection was down, are found by a sweep every SESSION_SWEEP_MS. Private topics are also
 * checked against the session store at subscribe time (Hub.sessionLive).
 */
export class SessionWatch {
  /** Sockets made anonymous, by how this node learnt their session had ended. */
  readonly counts = { local: 0, notified: 0, swept: 0 };
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;
  /** The HTTP side's memory of sessions (plugins/auth.ts): told of every end this node learns. */
  readonly cache = new SessionCache();

  constructor(
    private readonly db: Db,
    private readonly hub: Hub,
    private readonly idleDays: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(sweepMs = SESSION_SWEEP_MS): void {
    this.hub.sessionLive = async (id) =>
      (await liveSessionIds(this.db, [id], this.idleDays)).has(id);
    this.hub.onNotice(NOTICE, (data) => this.onNotice(data));
    this.hub.onNotice(BEARER_NOTICE, (data) => this.onBearerNotice(data));
    this.timer = setInterval(() => void this.sweep(), sweepMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Call once these sessions are gone from the store (signed out, signed out everywhere). */
  async ended(sessionIds: string[]): Promise<void> {
    if (!sessionIds.length) return;
    this.cache.forget(sessionIds);
    this.counts.local += this.hub.endSessions(sessionIds);
    // PGlite is one process: the local path above is all there is.
    if (this.db.kind !== 'postgres') return;
    for (let i = 0; i < sessionIds.length; i += NOTIFY_CHUNK) {
      await this.hub.notice(this.db, NOTICE, sessionIds.slice(i, i + NOTIFY_CHUNK));
    }
  }

  /**
   * A user signed out everywhere (their sessions, gone from the store, are `sessionIds`): their
   * cookie sockets and the sockets their phone apps opened with a Bearer token end, on every node.
   */
  async signedOutEverywhere(uid: string, sessionIds: string[]): Promise<void> {
    await this.ended(sessionIds);
    this.counts.local += this.hub.endBearersOf([uid]);
    if (this.db.kind === 'postgres') await this.hub.notice(this.db, BEARER_NOTICE, [uid]);
  }

  /**
   * Ends the sockets of every session that is no longer live, and of every Bearer token that
   * has expired by `now`; tests call it directly too.
   */
  async sweep(now = Date.now()): Promise<void> {
    this.counts.swept += this.hub.endExpiredBearers(now);
    if (this.sweeping) return;
    const ids = [...this.hub.sessionIds()];
    if (!ids.length) return;
    this.sweeping = true;
    try {
      const live = await liveSessionIds(this.db, ids, this.idleDays);
      const ended = ids.filter((id) => !live.has(id));
      this.cache.forget(ended);
      this.counts.swept += this.hub.endSessions(ended);
    } catch (err) {
      // The next sweep tries again; meanwhile subscribe-time checks still refuse ended sessions.
      this.log.warn({ err }, 'realtime: session sweep failed');
    } finally {
      this.sweeping = false;
    }
  }

  private onNotice(ids: unknown): void {
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
      this.log.warn({ ids }, 'realtime: unreadable session-end notice');
      return;
    }
    this.cache.forget(ids as string[]);
    this.counts.notified += this.hub.endSessions(ids as string[]);
  }

  private onBearerNotice(uids: unknown): void {
    if (!Array.isArray(uids) || !uids.every((id) => typeof id === 'string')) {
      this.log.warn({ uids }, 'realtime: unreadable bearer-end notice');
      return;
    }
    this.counts.notified += this.hub.endBearersOf(uids as string[]);
  }
}
