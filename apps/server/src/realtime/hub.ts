import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  RealtimeErrorCode,
  ServerMessageType,
  type ClientMessage,
  type ServerMessage,
} from '@sagan/shared/realtime';
import type { SessionUser } from '@sagan/shared/auth';
import type { TopicFamilyHead } from '@sagan/shared/topics/define';
import { userTopicFamily, type UserList } from '@sagan/shared/topics/user';
import { afterCommit, type Db, type Queryable } from '../db/db.ts';
import { Coalescer } from './coalesce.ts';
import { ExistenceBatcher, type KeyedBy } from './existence.ts';
import { CLOSE_TOO_MANY_MESSAGES } from './limits.ts';
import { eachInSlices } from './slices.ts';

/**
 * The server's half of a topic family declared in @sagan/shared/topics ('game' serves
 * 'game:{gameKey}'), registered by a feature: its prefix and privacy come from the declaration.
 */
export interface TopicDef {
  topic: TopicFamilyHead;
  /** Who may subscribe; the server decides, never the client. */
  authorize(user: SessionUser | null, arg: string): boolean | Promise<boolean>;
  /** The topic's whole current state, or null when it does not exist. */
  load(q: Queryable, arg: string): Promise<unknown>;
  /**
   * The table and unique key column `arg` names a row of. With it, a first subscription to a
   * topic whose row does not exist is answered null from a batched existence check instead of
   * a snapshot transaction of its own, so subscribing to made-up keys costs the server little.
   */
  keyedBy?: KeyedBy;
  /**
   * For a state that tells the time it is sent at (the clock's serverTime): applied to the
   * state whenever it is handed out (a frame built, a new subscriber, current()), so a viewer
   * joining long after the last change still learns the server's time.
   */
  stamp?(data: unknown): unknown;
  /**
   * For a big state that changes a little at a time (a play count): the writer's merge is a
   * delta that this applies, and subscribers get the delta, not the whole state, after their
   * first frame (docs/decisions/0002, amended). A node that cannot apply it reloads and sends
   * the whole state, which the client takes as always.
   */
  delta?(data: unknown, delta: unknown): unknown;
  /**
   * Another view of the same subject as this family's topic of the same argument (the game as
   * its scorers see it, beside the public game): numbered by that topic's sequence and
   * reloaded whenever that topic changes, so writers name only the one they always name.
   */
  follows?: TopicFamilyHead;
}

/**
 * A registered family. A private one is served to a signed-in user only: refused, and dropped
 * from open sockets, once the socket's session has ended (sign-out here or on another node,
 * expiry, idle expiry).
 */
interface Family extends Omit<TopicDef, 'topic' | 'follows'> {
  private: boolean;
  coalesce: boolean;
  /** The prefix of the family whose sequence numbers this one follows (TopicDef.follows). */
  follows?: string;
}

/** A per-user list's loader, and whether the list is an aggregate (see TopicFamily.coalesce). */
interface UserListDef {
  load(q: Queryable, uid: string): Promise<unknown>;
  coalesce: boolean;
}

interface Entry {
  subs: Set<Connection>;
  seq: number;
  /** The current state message, already a complete WebSocket frame (see wireFrame). */
  frame: Buffer | null;
  /** The state the frame carries, for readers on this node (the server-rendered first paint). */
  data: unknown;
  loading: Promise<void> | null;
  dirty: boolean;
  /** Broadcasts still being written, oldest first (see broadcast). */
  fanouts: Fanout[];
  /** A delta topic's frame is built again from data only when a new subscriber needs it. */
  frameStale?: boolean;
}

/** A topic's new sequence number, heard with the writer's merge (or none). */
type Heard = [topic: string, seq: number, merge: unknown];

/** One frame on its way to the subscribers a topic had when the frame was made. */
interface Fanout {
  frame: Buffer;
  subs: Connection[];
}

export interface Connection {
  socket: WebSocket;
  user: SessionUser | null;
  topics: Set<string>;
  /** The cookie session the socket was opened with (its id, not the token); null otherwise. */
  sessionId: string | null;
  /**
   * When the Bearer token the socket was opened with expires (ms since the epoch); null for a
   * cookie or anonymous socket. The socket acts for its user until then, like a session.
   */
  bearerExpiresAt: number | null;
  /**
   * Spends what the socket's own requests cost in bytes (a subscribe's state, a pong); false
   * when the socket has asked for more than its limits allow, and the hub then closes it.
   */
  spend?: (bytes: number) => boolean;
}

const CHANNEL = 'sagan_topics';
/** A consumer this far behind is cut off rather than buffered without bound. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
// NOTIFY payloads are limited to 8000 bytes: 40 topic names and numbers take ≈ 2.5 KB, merges
// at most MERGE_BUDGET_BYTES more.
const NOTIFY_CHUNK = 40;
const MERGE_BUDGET_BYTES = 4500;

const BUMPED_CHUNKS = `WITH bumped AS (
     INSERT INTO topic_seq (topic, seq) SELECT t, 1 FROM unnest($1::text[]) AS t
     ON CONFLICT (topic) DO UPDATE SET seq = topic_seq.seq + 1
     RETURNING topic, seq
   ), numbered AS (
     SELECT topic, seq, (row_number() OVER (ORDER BY (($3::jsonb ? topic) IS FALSE), topic) - 1) / $2 AS chunk
     FROM bumped
   ), chunks AS (
     SELECT json_agg(json_build_array(topic, seq, ($3::jsonb ->> topic)::json) ORDER BY topic)::text
              AS payload,
            json_object_agg(topic, seq) AS seqs
     FROM numbered GROUP BY chunk
   )`;
/**
 * On PostgreSQL, one round trip for a write's topics: bump every sequence number and NOTIFY
 * every node (chunks of NOTIFY_CHUNK topics; only the first chunk can carry merges, which keeps
 * every payload under NOTIFY's limit).
 */
const BUMP_TOPICS_NOTIFY_SQL = `${BUMPED_CHUNKS} SELECT pg_notify($4, payload), seqs FROM chunks`;
/**
 * On PGlite, only the new numbers: one process holds the database, so the writer's merges reach
 * its listeners without a trip through SQL (Hub.heardAtCommit). Exported for bench:write-cpu's
 * floor, which runs a score write's own statements without the server.
 */
export const BUMP_SEQS_SQL = `INSERT INTO topic_seq (topic, seq) SELECT t, 1 FROM unnest($1::text[]) AS t
   ON CONFLICT (topic) DO UPDATE SET seq = topic_seq.seq + 1 RETURNING topic, seq`;

/** The key of a carried merge that names a merge kept by the writer's node. */
const LOCAL_MERGE = '$localMerge';
/** How long a kept merge waits for its NOTIFY (one that never comes: its write rolled back). */
const LOCAL_MERGE_TTL_MS = 60_000;
/**
 * An aggregate topic's broadcast to more subscribers than this is written in slices of at most
 * FANOUT_SLICE_MS each, one per turn of the event loop. Writing one frame to 10,000 home-page
 * viewers takes the core for a tenth of a second or more; in slices, the writes and other
 * topics' frames that arrive meanwhile are served in between instead of waiting for all of it.
 */
export const FANOUT_SLICE = 256;
const FANOUT_SLICE_MS = 2;
/**
 * A topic's last frame is kept after its last subscriber leaves, until a change to it is heard
 * (its sequence number moves) or the room is needed: a client that subscribes and unsubscribes
 * the same topic in a loop costs no read of the database. At most this many such topics, and
 * frames of this many bytes together, the least recently left dropped first.
 */
const IDLE_TOPICS = 1000;
const IDLE_BYTES = 16 * 1024 * 1024;
/** The notice kind of recheck(): outside the names features give their own notices. */
const RECHECK = '$recheck';

/**
 * Fan-out from memory (DESIGN §4): each node keeps the current frame of every topic it has
 * subscribers for, reloads it once per change it hears of (LISTEN/NOTIFY on PostgreSQL; on
 * PGlite, from the writer at commit), serialises it once and writes the same string to every
 * subscriber.
 */
export class Hub {
  private readonly defs = new Map<string, Family>();
  /** Prefix → the prefixes of the families that follow it (TopicDef.follows). */
  private readonly followers = new Map<string, string[]>();
  private readonly entries = new Map<string, Entry>();
  /** Entries without subscribers whose frame is kept, by topic, least recently left first. */
  private readonly idle = new Map<string, number>();
  private idleBytes = 0;
  private readonly connections = new Set<Connection>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly existence: ExistenceBatcher;
  /** Database reads made to refresh topics; benchmarks and tests read it. */
  loads = 0;
  /** Changes applied from a writer's merge, without a read. */
  merges = 0;

  /**
   * Whether a session is still live, asked before a private topic is served to a socket
   * opened with that session (set by the session watch; without one, sessions are trusted).
   */
  sessionLive: ((sessionId: string) => Promise<boolean>) | null = null;

  /** Handlers of node-wide notices other than topic changes, by kind (see notice()). */
  private readonly noticeHandlers = new Map<string, (data: unknown) => void>();

  /** Per-user lists ('user:{uid}:{list}'), contributed by several features. */
  private readonly userLists = new Map<UserList, UserListDef>();

  /** Numbers aggregate topics outside writers' transactions (DESIGN §9). */
  readonly coalescer: Coalescer;
  /** Notifications not handled yet: handled after the current task, never inside a write. */
  private readonly inbox: Array<string | Heard[]> = [];
  /**
   * Delta topics' merges too big for a NOTIFY, kept by the writer's node under a token that the
   * NOTIFY carries instead ({[LOCAL_MERGE]: token}): this node then applies them like a carried
   * merge. Kept before the commit, because the NOTIFY may arrive on the listening connection
   * before the writer hears its COMMIT answered; a token, not the seq, names the merge, since a
   * rolled-back write's seq is taken again by the next write. A rolled-back write's merge is
   * never asked for and goes after LOCAL_MERGE_TTL_MS.
   */
  private readonly localMerges = new Map<string, unknown>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** The coalescing interval of aggregate topics (REALTIME_COALESCE_MS). */
    coalesceMs = 1000,
  ) {
    this.existence = new ExistenceBatcher(db);
    this.coalescer = new Coalescer(
      db,
      coalesceMs,
      (q, bumped) => this.notifyBumped(q, bumped),
      log,
    );
    this.defs.set(userTopicFamily.prefix, {
      private: userTopicFamily.private,
      coalesce: false, // decided per list, see isCoalesced
      // A user's own lists are theirs alone.
      authorize: (user, arg) => {
        const parsed = splitUserArg(arg);
        return (
          !!parsed &&
          !!user &&
          user.uid === parsed.uid &&
          this.userLists.has(parsed.list as UserList)
        );
      },
      load: async (q, arg) => {
        const parsed = splitUserArg(arg);
        const list = parsed && this.userLists.get(parsed.list as UserList);
        return list ? list.load(q, parsed.uid) : null;
      },
    });
    this.noticeHandlers.set(RECHECK, (data) => void this.recheckHere(data));
  }

  register({ topic, follows, ...def }: TopicDef): void {
    const { prefix } = topic;
    if (prefix === userTopicFamily.prefix) {
      throw new Error('per-user topics are registered with hub.registerUserList(list, load)');
    }
    if (this.defs.has(prefix)) throw new Error(`topic prefix ${prefix} registered twice`);
    this.defs.set(prefix, {
      ...def,
      private: topic.private,
      coalesce: topic.coalesce,
      ...(follows ? { follows: follows.prefix } : {}),
    });
    if (follows) {
      this.followers.set(follows.prefix, [...(this.followers.get(follows.prefix) ?? []), prefix]);
    }
  }

  /** Serves topic 'user:{uid}:{list}' to that uid only; load gets the uid. */
  registerUserList(
    { list, coalesce }: { list: UserList; coalesce: boolean },
    load: (q: Queryable, uid: string) => Promise<unknown>,
  ): void {
    if (this.userLists.has(list)) throw new Error(`user list ${list} registered twice`);
    this.userLists.set(list, { load, coalesce });
  }

  /** Whether the topic is an aggregate, numbered and sent at most once per interval. */
  isCoalesced(topic: string): boolean {
    const colon = topic.indexOf(':');
    const prefix = colon === -1 ? topic : topic.slice(0, colon);
    if (prefix === userTopicFamily.prefix) {
      const parsed = splitUserArg(topic.slice(colon + 1));
      return !!parsed && !!this.userLists.get(parsed.list as UserList)?.coalesce;
    }
    return !!this.defs.get(prefix)?.coalesce;
  }

  /**
   * A node that stopped abruptly may have left aggregate changes unnumbered (they are marked
   * after commit, bumped within an interval): at start every aggregate topic that ever changed
   * is bumped once, so viewers everywhere reload what they show.
   */
  async bumpAggregates(): Promise<void> {
    const esc = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
    const patterns: string[] = [];
    for (const [prefix, def] of this.defs) {
      if (def.coalesce) patterns.push(esc(prefix), `${esc(prefix)}:%`);
    }
    for (const [list, def] of this.userLists) {
      if (def.coalesce) patterns.push(`${esc(userTopicFamily.prefix)}:%:${esc(list)}`);
    }
    if (!patterns.length) return;
    const rows = await this.db.query<{ topic: string }>(
      'SELECT topic FROM topic_seq WHERE topic LIKE ANY($1::text[])',
      [patterns],
    );
    this.coalescer.mark(rows.map((r) => r.topic).filter((t) => this.isCoalesced(t)));
  }

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(CHANNEL, (payload) => this.enqueue(payload));
  }

  /**
   * PGlite delivers notifications while the committing write is still being answered: the
   * fan-out waits for the next turn of the event loop, so no write waits on it.
   */
  private enqueue(heard: string | Heard[]): void {
    if (this.inbox.push(heard) === 1) setImmediate(() => this.drainInbox());
  }

  private drainInbox(): void {
    for (const heard of this.inbox.splice(0)) {
      if (typeof heard === 'string') this.onNotify(heard);
      else this.hearAll(heard);
    }
  }

  async stop(reconnectAfterMs = 1000): Promise<void> {
    const bye = JSON.stringify({
      type: ServerMessageType.Reconnect,
      afterMs: reconnectAfterMs,
    } satisfies ServerMessage);
    for (const conn of this.connections) {
      try {
        conn.socket.send(bye);
        conn.socket.close(1012, 'server restarting');
      } catch {
        conn.socket.terminate();
      }
    }
    // Aggregate changes of this node not yet numbered: numbered now, for the other nodes.
    await this.coalescer.drain();
    await this.unlisten?.();
    this.unlisten = null;
  }

  /**
   * Call inside the writing transaction: bumps each topic's sequence number and queues a
   * NOTIFY, which PostgreSQL delivers to every node only if the transaction commits (on PGlite,
   * this node hears the change at commit). Aggregate topics (isCoalesced) are not bumped here:
   * they are marked once the transaction commits and numbered within an interval by the
   * coalescer, so writers share no row lock.
   *
   * `merges` lets a writer that knows what changed say so: for each topic named, the new whole
   * state is the previous one with these top-level keys replaced. A node holding exactly the
   * previous state (sequence number one lower) then builds the new frame from memory when the
   * NOTIFY arrives instead of reading the topic back from the database; any other node reloads
   * as usual (docs/decisions/0014-merge-in-notify.md).
   */
  async changed(
    q: Queryable,
    topics: string[],
    merges: Record<string, Record<string, unknown>> = {},
  ): Promise<void> {
    await this.changedSeqs(q, topics, merges);
  }

  /**
   * changed(), answering each non-aggregate topic's new sequence number (for a write's answer).
   * Aggregate topics get theirs from the coalescer after the commit, so they are not in it.
   */
  async changedSeqs(
    q: Queryable,
    topics: string[],
    merges: Record<string, Record<string, unknown>> = {},
  ): Promise<Record<string, number>> {
    const aggregates = topics.filter((t) => this.isCoalesced(t));
    if (aggregates.length) afterCommit(q, () => this.coalescer.mark(aggregates));
    // One lock order, no deadlocks between writers.
    const unique = [...new Set(topics)].filter((t) => !this.isCoalesced(t)).sort();
    if (!unique.length) return {};
    if (this.db.kind === 'pglite') return this.heardAtCommit(q, unique, merges);
    // NOTIFY payloads are limited to 8000 bytes: merges share a budget; what does not fit is
    // left out and those topics are reloaded as usual.
    const carried: Record<string, string> = {};
    let budget = MERGE_BUDGET_BYTES;
    for (const topic of unique) {
      const merge = merges[topic];
      if (!merge) continue;
      let json = JSON.stringify(merge);
      if (Buffer.byteLength(json) > budget) {
        // Delta topics only: their frames must not grow with the state, even past NOTIFY's limit.
        if (!this.entries.has(topic) || !this.familyOf(topic)?.delta) continue;
        const token = randomUUID();
        this.localMerges.set(token, merge);
        setTimeout(() => this.localMerges.delete(token), LOCAL_MERGE_TTL_MS).unref();
        json = JSON.stringify({ [LOCAL_MERGE]: token });
        if (Buffer.byteLength(json) > budget) continue;
      }
      budget -= Buffer.byteLength(json);
      carried[topic] = json;
    }
    const rows = await q.query<{ seqs: Record<string, number | string> }>(BUMP_TOPICS_NOTIFY_SQL, [
      unique,
      NOTIFY_CHUNK,
      JSON.stringify(carried),
      CHANNEL,
    ]);
    const seqs: Record<string, number> = {};
    for (const row of rows) {
      for (const [t, n] of Object.entries(row.seqs)) seqs[t] = Number(n);
    }
    return seqs;
  }

  /**
   * PGlite: the topics numbered, and heard by this node (the only one) when q commits, with the
   * writer's merges as they are: no NOTIFY's size limit, and no JSON there and back.
   */
  private async heardAtCommit(
    q: Queryable,
    topics: string[],
    merges: Record<string, Record<string, unknown>>,
  ): Promise<Record<string, number>> {
    const rows = await q.query<{ topic: string; seq: number | string }>(BUMP_SEQS_SQL, [topics]);
    const seqs: Record<string, number> = {};
    for (const row of rows) seqs[row.topic] = Number(row.seq);
    const items: Heard[] = topics.map((t) => [t, seqs[t]!, merges[t]]);
    afterCommit(q, () => this.enqueue(items));
    return seqs;
  }

  /** The NOTIFYs of topics the coalescer bumped: no merges, chunks of NOTIFY_CHUNK topics. */
  private async notifyBumped(q: Queryable, bumped: Array<[string, number]>): Promise<void> {
    for (let i = 0; i < bumped.length; i += NOTIFY_CHUNK) {
      const chunk = bumped.slice(i, i + NOTIFY_CHUNK).map(([t, seq]) => [t, seq, null]);
      await this.db.notify(q, CHANNEL, JSON.stringify(chunk));
    }
  }

  /**
   * Tells every node (this one included) something other than a topic change, e.g. that
   * sessions ended. It rides the topics' channel, so a node keeps one LISTEN connection; the
   * payload (JSON of data) must stay well under NOTIFY's 8000 bytes. Sent at once, or at
   * commit when q is a transaction.
   */
  async notice(q: Queryable, kind: string, data: unknown): Promise<void> {
    await this.db.notify(q, CHANNEL, JSON.stringify({ notice: kind, data }));
  }

  /**
   * Someone may have lost the right to see these topics (a co-scorer removed, a game deleted):
   * once q commits, every node asks the topics' authorize again for each socket subscribed to
   * them (only uid's sockets, when uid is given) and drops each subscription it now refuses,
   * telling that client 'no-access'. Without this a revoked socket would go on receiving every
   * change until it left the topic by itself; a subscription is otherwise authorized only once.
   */
  async recheck(q: Queryable, topics: string[], uid?: string): Promise<void> {
    for (let i = 0; i < topics.length; i += NOTIFY_CHUNK) {
      await this.notice(q, RECHECK, {
        topics: topics.slice(i, i + NOTIFY_CHUNK),
        uid: uid ?? null,
      });
    }
  }

  private async recheckHere(data: unknown): Promise<void> {
    if (!isPlainObject(data) || !Array.isArray(data.topics)) return;
    const uid = typeof data.uid === 'string' ? data.uid : null;
    const checks: Array<Promise<void>> = [];
    for (const topic of data.topics) {
      if (typeof topic !== 'string') continue;
      const entry = this.entries.get(topic);
      const def = this.familyOf(topic);
      if (!entry || !def) continue;
      const arg = topic.slice(topic.indexOf(':') + 1);
      for (const conn of entry.subs) {
        if (uid !== null && conn.user?.uid !== uid) continue;
        checks.push(this.recheckOne(conn, topic, def, arg));
      }
    }
    await Promise.all(checks);
  }

  private async recheckOne(conn: Connection, topic: string, def: Family, arg: string) {
    let allowed: boolean;
    try {
      allowed = await def.authorize(conn.user, arg);
    } catch (err) {
      // Not knowing is not a yes: the client may subscribe again and be asked afresh.
      this.log.error({ err, topic }, 'realtime: authorize failed on recheck');
      allowed = false;
    }
    // Unsubscribed meanwhile, or still allowed (invited again before this ran).
    if (allowed || !conn.topics.has(topic)) return;
    conn.topics.delete(topic);
    this.detach(conn, topic);
    this.sendError(
      conn,
      'You no longer have access to this topic',
      topic,
      RealtimeErrorCode.NoAccess,
    );
  }

  /** Handles notice(kind) from any node; one handler per kind, a later one replaces it. */
  onNotice(kind: string, handler: (data: unknown) => void): void {
    this.noticeHandlers.set(kind, handler);
  }

  /**
   * A topic's current state and sequence number: from memory when this node serves the topic,
   * otherwise one snapshot read. Nothing is subscribed or cached by asking.
   */
  async current(topic: string): Promise<{ seq: number; data: unknown }> {
    const entry = this.entries.get(topic);
    const { seq, data } =
      entry && entry.frame !== null && !entry.loading
        ? { seq: entry.seq, data: entry.data }
        : await this.load(topic);
    return { seq, data: this.stamped(topic, data) };
  }

  subscriberCount(topic: string): number {
    return this.entries.get(topic)?.subs.size ?? 0;
  }

  /** Subscribers of every topic under prefix that has any on this node. */
  subscriberCounts(prefix: string): Map<string, number> {
    const counts = new Map<string, number>();
    const head = `${prefix}:`;
    for (const [topic, entry] of this.entries) {
      if (topic.startsWith(head) && entry.subs.size) counts.set(topic, entry.subs.size);
    }
    return counts;
  }

  /** Subscriptions on this node by topic family (the topic's prefix), for /metrics. */
  subscriptionsByFamily(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [topic, entry] of this.entries) {
      if (!entry.subs.size) continue;
      const colon = topic.indexOf(':');
      const family = colon === -1 ? topic : topic.slice(0, colon);
      counts.set(family, (counts.get(family) ?? 0) + entry.subs.size);
    }
    return counts;
  }

  /**
   * Told how long each change took from its NOTIFY to its frame being written to subscribers
   * (in seconds): the fan-out latency operators watch.
   */
  fanoutObserver: ((seconds: number) => void) | null = null;

  get connectionCount(): number {
    return this.connections.size;
  }

  connect(
    socket: WebSocket,
    user: SessionUser | null,
    sessionId: string | null = null,
    bearerExpiresAt: number | null = null,
  ): Connection {
    const conn: Connection = {
      socket,
      user,
      topics: new Set(),
      sessionId: user ? sessionId : null,
      bearerExpiresAt: user ? bearerExpiresAt : null,
    };
    this.connections.add(conn);
    socket.on('close', () => {
      this.connections.delete(conn);
      for (const topic of conn.topics) this.detach(conn, topic);
    });
    return conn;
  }

  async handle(conn: Connection, msg: ClientMessage): Promise<void> {
    switch (msg.type) {
      case 'subscribe':
        return this.subscribe(conn, msg.topic, msg.sinceSeq);
      case 'unsubscribe':
        conn.topics.delete(msg.topic);
        return this.detach(conn, msg.topic);
      case 'ping':
        return this.reply(conn, JSON.stringify({ type: ServerMessageType.Pong }));
    }
  }

  sendError(conn: Connection, message: string, topic?: string, code?: RealtimeErrorCode): void {
    this.send(conn, JSON.stringify({ type: ServerMessageType.Error, topic, message, code }));
  }

  private async subscribe(conn: Connection, topic: string, sinceSeq?: number): Promise<void> {
    const colon = topic.indexOf(':');
    const prefix = colon === -1 ? topic : topic.slice(0, colon);
    const arg = colon === -1 ? '' : topic.slice(colon + 1);
    const def = this.defs.get(prefix);
    if (!def) return this.sendError(conn, 'Unknown topic', topic);
    if (def.private && !(await this.sessionHolds(conn))) return this.sendSignedOut(conn, topic);
    if (!(await def.authorize(conn.user, arg))) {
      return this.sendError(conn, 'You do not have access to this topic', topic);
    }
    // The session may have ended while authorize ran.
    if (def.private && !conn.user) return this.sendSignedOut(conn, topic);
    if (conn.socket.readyState !== conn.socket.OPEN) return;
    let entry = this.entries.get(topic);
    if (!entry) {
      entry = {
        subs: new Set(),
        seq: -1,
        frame: null,
        data: null,
        loading: null,
        dirty: false,
        fanouts: [],
      };
      this.entries.set(topic, entry);
    }
    this.unidle(topic);
    entry.subs.add(conn);
    conn.topics.add(topic);
    if (entry.frame === null) await this.refresh(topic, entry, /* broadcast */ false);
    if (!entry.subs.has(conn) || entry.frame === null) return;
    if (sinceSeq !== undefined && sinceSeq === entry.seq) {
      this.reply(conn, JSON.stringify({ type: ServerMessageType.Current, topic, seq: entry.seq }));
    } else if (def.stamp) {
      this.reply(conn, stateMessage(topic, entry.seq, this.stamped(topic, entry.data)));
    } else {
      this.reply(conn, this.wholeFrame(topic, entry));
    }
  }

  /** Sends what the socket asked for, once its byte limit allows; closes it otherwise. */
  private reply(conn: Connection, frame: string | Buffer): void {
    const bytes = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    if (conn.spend && !conn.spend(bytes)) {
      if (conn.socket.readyState === conn.socket.OPEN) {
        conn.socket.close(CLOSE_TOO_MANY_MESSAGES, 'Too much data asked for');
      }
      return;
    }
    this.send(conn, frame);
  }

  /** The state as handed out now: stamped, for a family that asks for it. */
  private stamped(topic: string, data: unknown): unknown {
    const colon = topic.indexOf(':');
    const stamp = this.defs.get(colon === -1 ? topic : topic.slice(0, colon))?.stamp;
    return stamp ? stamp(data) : data;
  }

  /** The ids of the sessions open sockets were opened with and still act for. */
  sessionIds(): Set<string> {
    const ids = new Set<string>();
    for (const conn of this.connections) if (conn.sessionId) ids.add(conn.sessionId);
    return ids;
  }

  /**
   * These sessions ended: their sockets become anonymous, lose their private subscriptions and
   * are told so (an error with code 'signed-out' per dropped topic, and one without a topic).
   * Public topics stay. Returns how many sockets were affected; a second call for the same
   * session finds none.
   */
  endSessions(sessionIds: Iterable<string>): number {
    const ended = new Set(sessionIds);
    if (!ended.size) return 0;
    return this.endIdentities((conn) => !!conn.sessionId && ended.has(conn.sessionId));
  }

  /** Sockets opened with a Bearer token that has expired by `now` end as a session would. */
  endExpiredBearers(now: number): number {
    return this.endIdentities(
      (conn) => conn.bearerExpiresAt !== null && conn.bearerExpiresAt <= now,
    );
  }

  /**
   * These users signed out everywhere: their Bearer sockets end too (a Google ID token cannot
   * be revoked, but what it opened here can).
   */
  endBearersOf(uids: Iterable<string>): number {
    const ended = new Set(uids);
    if (!ended.size) return 0;
    return this.endIdentities(
      (conn) => conn.bearerExpiresAt !== null && !!conn.user && ended.has(conn.user.uid),
    );
  }

  private endIdentities(matches: (conn: Connection) => boolean): number {
    let affected = 0;
    for (const conn of this.connections) {
      if (!conn.user || !matches(conn)) continue;
      conn.user = null;
      conn.sessionId = null;
      conn.bearerExpiresAt = null;
      affected++;
      for (const topic of conn.topics) {
        if (!this.isPrivate(topic)) continue;
        conn.topics.delete(topic);
        this.detach(conn, topic);
        this.sendSignedOut(conn, topic);
      }
      this.sendSignedOut(conn);
    }
    return affected;
  }

  private isPrivate(topic: string): boolean {
    const colon = topic.indexOf(':');
    return !!this.defs.get(colon === -1 ? topic : topic.slice(0, colon))?.private;
  }

  /** False when the socket's session has ended (the socket is then made anonymous). */
  private async sessionHolds(conn: Connection): Promise<boolean> {
    if (conn.bearerExpiresAt !== null && conn.bearerExpiresAt <= Date.now()) {
      this.endIdentities((c) => c === conn);
      return false;
    }
    const id = conn.sessionId;
    if (!id || !this.sessionLive) return true;
    if (await this.sessionLive(id)) return true;
    this.endSessions([id]);
    return false;
  }

  private sendSignedOut(conn: Connection, topic?: string): void {
    this.send(
      conn,
      JSON.stringify({
        type: ServerMessageType.Error,
        topic,
        message: 'Signed out: sign in again to see this',
        code: RealtimeErrorCode.SignedOut,
      } satisfies ServerMessage),
    );
  }

  private detach(conn: Connection, topic: string): void {
    const entry = this.entries.get(topic);
    if (!entry) return;
    entry.subs.delete(conn);
    if (entry.subs.size === 0 && !entry.loading) this.retire(topic, entry);
  }

  /** An entry whose last subscriber left: its frame is kept idle, or it goes. */
  private retire(topic: string, entry: Entry): void {
    if (entry.frame === null || entry.fanouts.length) {
      this.entries.delete(topic);
      return;
    }
    this.unidle(topic);
    this.idle.set(topic, entry.frame.length);
    this.idleBytes += entry.frame.length;
    for (const [oldest, bytes] of this.idle) {
      if (this.idle.size <= IDLE_TOPICS && this.idleBytes <= IDLE_BYTES) break;
      this.idle.delete(oldest);
      this.idleBytes -= bytes;
      this.entries.delete(oldest);
    }
  }

  /** Takes a topic off the idle list (it has a subscriber again, or is dropped). */
  private unidle(topic: string): void {
    const bytes = this.idle.get(topic);
    if (bytes === undefined) return;
    this.idle.delete(topic);
    this.idleBytes -= bytes;
  }

  /** Topics whose frame is kept without subscribers (see IDLE_TOPICS); tests read it. */
  get idleTopics(): number {
    return this.idle.size;
  }

  private onNotify(payload: string): void {
    let items: unknown;
    try {
      items = JSON.parse(payload);
    } catch {
      items = null;
    }
    if (isPlainObject(items) && typeof items.notice === 'string') {
      this.noticeHandlers.get(items.notice)?.(items.data);
      return;
    }
    if (!Array.isArray(items)) {
      this.log.warn({ payload }, 'realtime: unreadable notification');
      return;
    }
    const heard: Heard[] = [];
    for (const item of items as unknown[]) {
      if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'number')
        continue;
      const [topic, seq, carried] = item as [string, number, unknown];
      heard.push([topic, seq, this.takeLocalMerge(carried)]);
    }
    this.hearAll(heard);
  }

  /** Topics moved to new numbers, each with the writer's merge if it came with one. */
  private hearAll(items: Heard[]): void {
    for (const [topic, seq, merge] of items) {
      this.heard(topic, seq, merge);
      const colon = topic.indexOf(':');
      const following = colon === -1 ? undefined : this.followers.get(topic.slice(0, colon));
      // The writer's merge is the followed topic's state, not theirs: they reload.
      for (const prefix of following ?? []) {
        this.heard(`${prefix}${topic.slice(colon)}`, seq, undefined);
      }
    }
  }

  /** A topic has moved to seq: its subscribers here get the new state. */
  private heard(topic: string, seq: number, merge: unknown): void {
    const entry = this.entries.get(topic);
    if (!entry || seq <= entry.seq) return;
    if (this.idle.has(topic)) {
      // Nobody here watches it: dropped, not reloaded; the next subscriber reads it.
      this.unidle(topic);
      this.entries.delete(topic);
      return;
    }
    const heard = performance.now();
    const observe = () => this.fanoutObserver?.((performance.now() - heard) / 1000);
    if (this.applyMerge(topic, entry, seq, merge)) observe();
    else void this.refresh(topic, entry, true).then(observe);
  }

  /** A carried merge, or the merge this node kept for the token it carries (once). */
  private takeLocalMerge(carried: unknown): unknown {
    if (!carried || typeof carried !== 'object' || !(LOCAL_MERGE in carried)) return carried;
    const token = (carried as Record<string, unknown>)[LOCAL_MERGE];
    if (typeof token !== 'string') return undefined;
    const merge = this.localMerges.get(token);
    this.localMerges.delete(token);
    return merge;
  }

  /** The next state from the previous one and the writer's merge, when both are at hand. */
  private applyMerge(topic: string, entry: Entry, seq: number, merge: unknown): boolean {
    if (
      entry.loading ||
      entry.frame === null ||
      entry.seq !== seq - 1 ||
      !isPlainObject(merge) ||
      !isPlainObject(entry.data)
    ) {
      return false;
    }
    const delta = this.familyOf(topic)?.delta;
    if (delta) {
      entry.seq = seq;
      entry.data = delta(entry.data, merge);
      entry.frameStale = true;
      this.merges++;
      const frame = wireFrame(
        JSON.stringify({ type: ServerMessageType.Delta, topic, seq, data: merge }),
      );
      for (const conn of entry.subs) this.send(conn, frame);
      return true;
    }
    // A key set to undefined keeps its value, as it does where the merge came as JSON.
    const next: Record<string, unknown> = { ...entry.data };
    for (const [key, value] of Object.entries(merge)) if (value !== undefined) next[key] = value;
    this.setState(topic, entry, seq, next);
    this.merges++;
    this.broadcast(topic, entry);
    return true;
  }

  /**
   * Sends the entry's current frame to its subscribers. An aggregate topic (isCoalesced) with
   * more than FANOUT_SLICE of them is written in slices of FANOUT_SLICE_MS, one per turn of the
   * event loop: its frame is at most one per interval and may take a few turns, while the
   * writes arriving meanwhile are answered. Any other topic goes to all its subscribers at once:
   * a game's viewers wait for nothing else. A topic's sliced broadcasts go out one after
   * another, so every subscriber still gets every frame in order; a socket that subscribes
   * meanwhile was sent the newest frame on subscribing and is left out of the older broadcasts.
   */
  private broadcast(topic: string, entry: Entry): void {
    const frame = entry.frame!;
    if (!entry.fanouts.length && (entry.subs.size <= FANOUT_SLICE || !this.isCoalesced(topic))) {
      for (const conn of entry.subs) this.send(conn, frame);
      return;
    }
    entry.fanouts.push({ frame, subs: [...entry.subs] });
    if (entry.fanouts.length === 1) this.fanOut(entry);
  }

  /** Writes the entry's oldest broadcast in slices, then the next one from the next turn. */
  private fanOut(entry: Entry): void {
    const { frame, subs } = entry.fanouts[0]!;
    eachInSlices(
      subs,
      (conn) => {
        // Unsubscribed or closed since the frame was made.
        if (entry.subs.has(conn)) this.send(conn, frame);
      },
      FANOUT_SLICE_MS,
      () => {
        entry.fanouts.shift();
        if (entry.fanouts.length) setImmediate(() => this.fanOut(entry));
      },
    );
  }

  private setState(topic: string, entry: Entry, seq: number, data: unknown): void {
    entry.seq = seq;
    entry.data = data;
    entry.frame = wireFrame(stateMessage(topic, seq, this.stamped(topic, data)));
    entry.frameStale = false;
  }

  /** The whole current state's frame, for a new subscriber. */
  private wholeFrame(topic: string, entry: Entry): Buffer {
    if (entry.frameStale) this.setState(topic, entry, entry.seq, entry.data);
    return entry.frame!;
  }

  private familyOf(topic: string): Family | undefined {
    const colon = topic.indexOf(':');
    return this.defs.get(colon === -1 ? topic : topic.slice(0, colon));
  }

  /** Reloads a topic; changes arriving during a load coalesce into one more load. */
  private refresh(topic: string, entry: Entry, broadcast: boolean): Promise<void> {
    if (entry.loading) {
      entry.dirty = true;
      return entry.loading;
    }
    entry.loading = (async () => {
      do {
        entry.dirty = false;
        try {
          const { seq, data } = await this.load(topic, /* probe */ entry.frame === null);
          if (seq > entry.seq || entry.frame === null) {
            this.setState(topic, entry, seq, data);
            if (broadcast) this.broadcast(topic, entry);
          }
        } catch (err) {
          this.log.error({ err, topic }, 'realtime: topic load failed');
        }
        broadcast = true;
      } while (entry.dirty);
    })().finally(() => {
      entry.loading = null;
      if (entry.subs.size === 0) this.retire(topic, entry);
    });
    return entry.loading;
  }

  private async load(topic: string, probe = false): Promise<{ seq: number; data: unknown }> {
    const colon = topic.indexOf(':');
    const def = this.defs.get(colon === -1 ? topic : topic.slice(0, colon));
    if (!def) throw new Error(`no topic def for ${topic}`);
    const arg = colon === -1 ? '' : topic.slice(colon + 1);
    this.loads++;
    const numberedAs = def.follows ? `${def.follows}:${arg}` : topic;
    if (probe && def.keyedBy) {
      const { exists, seq } = await this.existence.check(numberedAs, arg, def.keyedBy);
      if (!exists) return { seq, data: null };
    }
    // One snapshot for the sequence number and the state, so the number labels that state.
    return this.db.tx(
      async (q) => {
        const rows = await q.query<{ seq: number }>('SELECT seq FROM topic_seq WHERE topic = $1', [
          numberedAs,
        ]);
        const data = await def.load(q, arg);
        return { seq: Number(rows[0]?.seq ?? 0), data };
      },
      { snapshot: true },
    );
  }

  private send(conn: Connection, frame: string | Buffer): void {
    const { socket } = conn;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log.warn({ buffered: socket.bufferedAmount }, 'realtime: slow consumer cut off');
      socket.terminate();
      return;
    }
    if (typeof frame === 'string') return socket.send(frame);
    // Fan-out path: the frame was encoded and framed once for every subscriber
    // (docs/decisions/0010-prebuilt-websocket-frames.md).
    const sender = (socket as unknown as { _sender?: RawSender })._sender;
    if (sender && typeof sender.sendFrame === 'function' && socket.extensions === '') {
      sender.sendFrame([frame]);
    } else {
      socket.send(unwrapFrame(frame), { binary: false });
    }
  }
}

function stateMessage(topic: string, seq: number, data: unknown): string {
  return JSON.stringify({ type: ServerMessageType.State, topic, seq, data });
}

/** ws's internal sender; engine.io (socket.io) writes pre-built frames through it too. */
interface RawSender {
  sendFrame(list: Buffer[], cb?: () => void): void;
}

const FRAME_DATA = new WeakMap<Buffer, Buffer>();

/**
 * A text message as one complete, unmasked WebSocket frame (header + UTF-8 payload), built
 * once per change: writing it to 10,000 sockets then costs one write each, with no per-socket
 * UTF-8 encoding or header building. Only valid without permessage-deflate, which we leave off.
 */
function wireFrame(text: string): Buffer {
  const data = Buffer.from(text);
  // RFC 6455 §5.2: FIN + text opcode, then the payload length in 7, 7+16 or 7+64 bits.
  const n = data.length;
  const headerLength = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  data.copy(frame, headerLength);
  FRAME_DATA.set(frame, data);
  return frame;
}

function unwrapFrame(frame: Buffer): Buffer {
  return FRAME_DATA.get(frame) ?? frame;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** 'uid:list' → parts; the list is the last segment (imported uids might hold ':'). */
function splitUserArg(arg: string): { uid: string; list: string } | null {
  const at = arg.lastIndexOf(':');
  if (at <= 0 || at === arg.length - 1) return null;
  return { uid: arg.slice(0, at), list: arg.slice(at + 1) };
}
