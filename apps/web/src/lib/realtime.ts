import { createContext, useContext, useEffect, useState } from 'react';
import type { ClientMessage } from '@sagan/shared/realtime';
import type { TopicFamily } from '@sagan/shared/topics/define';
import { Reconnects } from '@sagan/shared/backoff';
import { WS_PATH } from '@sagan/shared/http-paths';
import { parseServerMessage } from '@sagan/shared/realtime-envelope';
import type { Reader } from './shape.ts';

type Listener = () => void;

interface TopicState {
  seq: number | undefined;
  data: unknown;
  error: string | undefined;
  received: boolean;
  /** False for a state seeded from the server-rendered page until a component subscribes. */
  subscribed: boolean;
  /** The family's applyDelta, for a topic sent as deltas after its first frame. */
  applyDelta?: ((state: never, delta: never) => unknown) | undefined;
  listeners: Set<Listener>;
}

/** A topic's state as the server rendered it into the page (docs/decisions/0013). */
export interface TopicSeed {
  topic: string;
  seq: number;
  data: unknown;
}

/**
 * The one WebSocket of a tab (DESIGN §4). Topics carry whole states with sequence numbers; on
 * reconnect each topic is resumed from the last number seen, so the server sends only what is
 * newer. Reconnects back off exponentially with jitter so a restarted server is not stampeded.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  private readonly topics = new Map<string, TopicState>();
  private readonly reconnects = new Reconnects(() => this.ensureSocket());
  readonly statusListeners = new Set<(connected: boolean) => void>();
  private readonly signedOutListeners = new Set<() => void>();

  /** url may be a function, so that importing this module on the server (SSR) reads no `location`. */
  constructor(private readonly url: string | (() => string)) {}

  /**
   * Starts a topic from the state the server rendered the page with, before anything
   * subscribes: the first render shows it at once, and the subscription then resumes from its
   * sequence number (the server answers `current`, or the newer state).
   */
  seed({ topic, seq, data }: TopicSeed): void {
    if (this.topics.has(topic)) return;
    this.topics.set(topic, {
      seq,
      data,
      error: undefined,
      received: true,
      subscribed: false,
      listeners: new Set(),
    });
  }

  subscribe(
    topic: string,
    listener: Listener,
    applyDelta?: (state: never, delta: never) => unknown,
  ): () => void {
    let state = this.topics.get(topic);
    if (!state) {
      state = {
        seq: undefined,
        data: undefined,
        error: undefined,
        received: false,
        subscribed: false,
        listeners: new Set(),
      };
      this.topics.set(topic, state);
    }
    state.applyDelta ??= applyDelta;
    if (!state.subscribed) {
      state.subscribed = true;
      this.sendSubscribe(topic, state);
    }
    state.listeners.add(listener);
    this.ensureSocket();
    return () => this.release(topic, listener);
  }

  private release(topic: string, listener: Listener): void {
    const s = this.topics.get(topic);
    if (!s) return;
    s.listeners.delete(listener);
    if (s.listeners.size === 0) {
      this.topics.delete(topic);
      this.send({ type: 'unsubscribe', topic });
    }
  }

  snapshot(topic: string): TopicState | undefined {
    return this.topics.get(topic);
  }

  /**
   * Resolves once a subscribed topic holds a state newer than sequence number `seq` (or an
   * error), or after timeoutMs; at once when nothing is subscribed or seq is unknown.
   */
  newerThan(topic: string, seq: number | undefined, timeoutMs = 3000): Promise<void> {
    const state = this.topics.get(topic);
    if (!state?.subscribed || seq === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (state.error === undefined && (state.seq === undefined || state.seq <= seq)) return;
        done();
      };
      const done = () => {
        clearTimeout(timer);
        this.release(topic, check);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      state.listeners.add(check);
      check(); // the state may have arrived before the write's answer
    });
  }

  /**
   * Called when the server says this socket's session ended (signed out in another tab or on
   * another device, expired): the app then asks again who is signed in. Returns the remover.
   */
  onSignedOut(listener: () => void): () => void {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  /** Closes the socket for good: no reconnects (a page lives as long as its tab; tests end). */
  close(): void {
    this.reconnects.stop();
    this.socket?.close(1000, 'closed');
    this.socket = null;
  }

  /** After sign-in or sign-out: a new socket carries the new identity. */
  reconnect(): void {
    // Topics dropped at a sign-out that a page still shows are asked for again as the new
    // identity (they answer with that identity's rights).
    for (const state of this.topics.values()) {
      if (state.subscribed || state.listeners.size === 0) continue;
      state.subscribed = true;
      state.received = false;
      state.error = undefined;
    }
    this.socket?.close(1000, 'identity changed');
    this.socket = null;
    this.reconnects.reset();
    this.ensureSocket();
  }

  private ensureSocket(): void {
    if (this.socket || this.reconnects.holding) return;
    const ws = new WebSocket(typeof this.url === 'string' ? this.url : this.url());
    this.socket = ws;
    ws.onopen = () => {
      this.reconnects.reset();
      this.statusListeners.forEach((l) => l(true));
      for (const [topic, state] of this.topics)
        if (state.subscribed) this.sendSubscribe(topic, state);
    };
    ws.onmessage = (ev) => this.onMessage(String(ev.data));
    // A failed socket also closes, and the close schedules the reconnect. Handling the error
    // here keeps WebSocket implementations that throw unheard errors (Node's ws) from ending
    // the process.
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.statusListeners.forEach((l) => l(false));
      this.reconnects.schedule();
    };
  }

  private onMessage(raw: string): void {
    const msg = parseServerMessage(raw);
    if (!msg) return;
    if (msg.type === 'state') {
      const state = this.topics.get(msg.topic);
      if (!state || (state.seq !== undefined && msg.seq < state.seq)) return;
      state.seq = msg.seq;
      state.data = msg.data;
      state.error = undefined;
      state.received = true;
      state.listeners.forEach((l) => l());
    } else if (msg.type === 'delta') {
      const state = this.topics.get(msg.topic);
      if (!state?.subscribed || state.seq === undefined || msg.seq <= state.seq) return;
      if (msg.seq !== state.seq + 1 || !state.applyDelta || !state.data) {
        // A change was missed: the subscription resumes from what is held, and the server
        // answers with the whole newest state.
        this.sendSubscribe(msg.topic, state);
        return;
      }
      state.data = state.applyDelta(state.data as never, msg.data as never);
      state.seq = msg.seq;
      state.listeners.forEach((l) => l());
    } else if (msg.type === 'error' && (msg.code === 'signed-out' || msg.code === 'no-access')) {
      this.dropSignedOut(msg.topic, msg.message);
    } else if (msg.type === 'error' && msg.topic) {
      const state = this.topics.get(msg.topic);
      if (!state) return;
      state.error = msg.message;
      state.received = true;
      state.listeners.forEach((l) => l());
    } else if (msg.type === 'reconnect') {
      const ws = this.socket;
      this.socket = null;
      ws?.close();
      this.reconnects.scheduleAsked(msg.afterMs);
    }
  }

  /**
   * The server refused a private topic because the session ended, or dropped it because this
   * user may no longer see it: its data goes, it is not asked for again on reconnect, and for a
   * session's end the app is told once.
   */
  private dropSignedOut(topic: string | undefined, message: string): void {
    const state = topic === undefined ? undefined : this.topics.get(topic);
    if (state) {
      state.subscribed = false;
      state.seq = undefined;
      state.data = undefined;
      state.error = message;
      state.received = true;
      state.listeners.forEach((l) => l());
    }
    // The server sends one message without a topic per ended session.
    if (topic === undefined) this.signedOutListeners.forEach((l) => l());
  }

  private sendSubscribe(topic: string, state: TopicState): void {
    this.send({
      type: 'subscribe',
      topic,
      ...(state.seq !== undefined ? { sinceSeq: state.seq } : {}),
    });
  }

  private send(msg: ClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }
}

function socketUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${WS_PATH}`;
}

export const realtime = new RealtimeClient(socketUrl);

/**
 * The client useLive reads. The browser uses the one of the tab; the server renders each page
 * with a client of its own, seeded with the state it fetched and never connected.
 */
export const RealtimeContext = createContext<RealtimeClient>(realtime);

/** Reads the states the server rendered the page with (#sagan-initial), if any. */
export function readInitialTopics(doc: Document): TopicSeed[] {
  const el = doc.getElementById(INITIAL_STATE_ID);
  if (!el?.textContent) return [];
  try {
    const parsed: unknown = JSON.parse(el.textContent);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (t): t is TopicSeed =>
        !!t &&
        typeof t === 'object' &&
        typeof (t as TopicSeed).topic === 'string' &&
        Number.isInteger((t as TopicSeed).seq) &&
        'data' in t,
    );
  } catch {
    return [];
  }
}

/** The id of the server-rendered page's `<script type="application/json">` of topic states. */
const INITIAL_STATE_ID = 'sagan-initial';

export interface TopicResult<T> {
  data: T | undefined;
  /** The sequence number of `data` (a writer sends it as the state its change is based on). */
  seq?: number;
  loading: boolean;
  error: string | undefined;
}

/**
 * What useLive needs of a topic family: a shared one (packages/shared/src/topics/), whose schema
 * is zod's, or a viewer's one (viewer-topics.ts), whose schema is a shape reader.
 */
type LiveFamily<Args extends readonly string[], T> = Pick<
  TopicFamily<Args, never>,
  'name' | 'applyDelta'
> & { schema: Reader<T> };

/** Each argument of a topic's name, or null while it is not known yet (e.g. who is signed in). */
type OrNull<Args extends readonly unknown[]> = { [K in keyof Args]: Args[K] | null };

/**
 * The live state of the topic `family.name(...args)`, parsed with the family's schema; a null
 * argument subscribes to nothing. The first state arrives on subscribe (or from the
 * server-rendered page), so a live screen reads its topic and nothing else.
 */
export function useLive<Args extends readonly string[], T>(
  family: LiveFamily<Args, T>,
  ...args: OrNull<Args>
): TopicResult<T> {
  const known = args.every((a) => a !== null);
  const topic = known ? family.name(...(args as unknown as Args)) : null;
  const client = useContext(RealtimeContext);
  const [, force] = useState(0);
  useEffect(() => {
    if (!topic) return;
    return client.subscribe(topic, () => force((n) => n + 1), family.applyDelta);
  }, [client, topic, family.applyDelta]);
  if (!topic) return { data: undefined, loading: false, error: undefined };
  const state = client.snapshot(topic);
  if (!state?.received) return { data: undefined, loading: true, error: undefined };
  if (state.error) return { data: undefined, loading: false, error: state.error };
  const parsed = family.schema.safeParse(state.data);
  if (!parsed.success) {
    console.error(`realtime ${topic}: unexpected data`, parsed.error);
    return { data: undefined, loading: false, error: 'Unexpected data from the server' };
  }
  return { data: parsed.data, seq: state.seq, loading: false, error: undefined };
}

/**
 * For a screen that reads the topic `family.name(...args)` and writes over the API: wraps a
 * write that bumps that topic so it settles (with the write's answer) only once the topic shows
 * the write. The screen then never shows the old state after a write succeeded, and a page
 * opened next (e.g. the group just created) finds what the write made.
 */
export function useLiveWrite<Args extends readonly string[], T>(
  family: LiveFamily<Args, T>,
  ...args: Args
): <T>(write: () => Promise<T>) => Promise<T> {
  const client = useContext(RealtimeContext);
  const topic = family.name(...args);
  return async (write) => {
    const before = client.snapshot(topic)?.seq;
    const result = await write();
    await client.newerThan(topic, before);
    return result;
  };
}
