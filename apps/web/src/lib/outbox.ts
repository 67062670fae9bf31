import { useEffect, useState, useSyncExternalStore } from 'react';
import { API_PATH } from '@sagan/shared/http-paths';
import { CSRF_HEADER } from '@sagan/shared/auth-status';
import { reconnectDelayMs } from '@sagan/shared/backoff';
import { deviceUid, onDeviceUserChange } from './device-user.ts';
import { objectStore, request } from './idb.ts';
import { newId } from './new-id.ts';

/**
 * The outbox (DESIGN §9): the way an input screen writes, so that a tap is never lost and never
 * counted twice, on a slow network, offline, or across a reload.
 *
 * A screen describes a *stream* (one ordered queue, e.g. `game:{gameKey}`) and enqueues
 * *intents* ("home +1"), not requests. The outbox keeps them in order in IndexedDB and sends
 * one at a time per stream: at send time `stream.build(intent, base)` turns the next intent into
 * a request against the newest state it knows (`base`: the live topic's state the screen passes
 * in, or the state a 409 returned, or the state a success proves). Each intent gets its own
 * `Idempotency-Key` when queued; once a request is built for it, that request is kept (in
 * IndexedDB too) and resent unchanged until the server answers, so a retry after a lost answer
 * is a replay that changes nothing. Answers:
 *   - 2xx: the intent is done; `stream.settle` says what the base is now, or which sequence
 *     number the live state must reach before the next intent is built on it;
 *   - 409: the server's current state (`stream.stateFrom409`) becomes the base and the intent
 *     is built again, under a fresh key (the first request changed nothing);
 *   - 429/503: wait as long as `Retry-After` says (else back off), then resend;
 *   - other 5xx and network failures: back off (500 ms doubling to 15 s, jittered), resend;
 *     an offline browser waits for the 'online' event;
 *   - other 4xx: the intent is dropped and `error` says why (the server refused it for good).
 *
 * API for a screen:
 *   const box = useOutbox(stream, liveState);  // liveState: the topic's state with its seq
 *   box.enqueue(intent);     // returns at once; the intent shows in box.items
 *   box.items                // the intents not yet confirmed, oldest first (optimistic display:
 *                            // fold them over the live state; a sent one carries its request)
 *   box.answered             // intents the server took that the live state does not show yet
 *                            // (each with the seq it made): folded before box.items
 *   box.online, box.error    // "offline, N changes waiting"; the last refusal, if any
 *
 * Each intent belongs to the user who queued it (`owner`). Only the owner's intents show and are
 * sent: on a shared device, someone else signed in neither sees nor sends them (the server
 * would take them as theirs, or refuse them and the outbox would drop them). They stay stored
 * and are sent when their owner is signed in again.
 *
 * The queue logic (`Outbox`) takes its storage, its transport, its connectivity and who is
 * signed in as small interfaces, so it is unit-tested in Node; the browser ones are below.
 */

export interface OutboxRequest {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Under the API path, e.g. `/games/abc`. */
  path: string;
  body?: unknown;
}

export interface OutboxStream<I, S> {
  /** The queue's name, e.g. `game:${gameKey}`; intents of one stream are sent in order. */
  name: string;
  /** Whether `build` needs a state: the outbox then waits for the first one before sending. */
  needsBase?: boolean;
  /** The request for an intent against the newest known state; null: nothing to send. */
  build(intent: I, base: S | null): OutboxRequest | null;
  /** The server's current state from a 409 answer's body (null: none, the intent is dropped). */
  stateFrom409(body: unknown): S | null;
  /** The state's sequence number, to tell the newest of the live, 409 and settled states. */
  seqOf(state: S): number;
  /**
   * After a success: `{ base }` when the answer proves the new state (e.g. the server's seq is
   * the base's plus one), `{ waitFor }` to wait (briefly) for a live state at that seq before
   * building the next request, or null when the base needs no change.
   */
  settle?(
    request: OutboxRequest,
    base: S | null,
    answer: unknown,
  ): { base: S } | { waitFor: number } | null;
}

export interface OutboxItem<I> {
  /** Unique per intent; its idempotency keys derive from it. */
  id: string;
  stream: string;
  intent: I;
  /** The key of the current request (a new one after a 409). */
  key: string;
  /** The request built for `key`, kept until answered so a retry is an exact replay. */
  request?: OutboxRequest;
  conflicts: number;
  /** The uid of the user who queued it; absent on intents queued before owners were kept. */
  owner?: string;
}

/** Where queued intents live; the order of `list` is the order of `put` for new ids. */
export interface OutboxStore {
  list(stream: string): Promise<OutboxItem<unknown>[]>;
  /** Keeps the item before it returns its promise (a reload right after the call keeps it). */
  put(item: OutboxItem<unknown>): Promise<void>;
  remove(id: string): Promise<void>;
}

interface OutboxAnswer {
  status: number;
  body: unknown;
  /** Retry-After in ms, when the answer had one. */
  retryAfterMs: number | null;
}

/** Sends one request; rejects when the server could not be reached. */
type OutboxSend = (request: OutboxRequest, idempotencyKey: string) => Promise<OutboxAnswer>;

export interface Connectivity {
  isOnline(): boolean;
  onChange(listener: () => void): () => void;
}

/** Who is signed in on this device (offline: who was when it last knew). */
export interface DeviceUser {
  uid(): string | null;
  onChange(listener: () => void): () => void;
}

export interface OutboxDeps {
  store: OutboxStore;
  send: OutboxSend;
  connectivity: Connectivity;
  user: DeviceUser;
  /** How long to wait for the live state to catch up with a write before building on it. */
  settleTimeoutMs?: number;
  random?: () => number;
}

/** An intent the server took, with the sequence number its answer gave the state. */
export type AnsweredItem<I> = OutboxItem<I> & { request: OutboxRequest; seq: number };

export interface OutboxSnapshot<I> {
  /** The signed-in user's intents not yet confirmed, oldest first. */
  items: readonly OutboxItem<I>[];
  /**
   * The signed-in user's intents the server has taken but the live state does not show yet
   * (its seq is below theirs), oldest first. A write's answer comes back before its change
   * reaches the live topic: a screen that folded only `items` over the live state would show
   * the state before the change meanwhile, and a tap made then would be built on it (a "−1"
   * at the 0 shown would be ignored, where the server was at 10).
   */
  answered: readonly AnsweredItem<I>[];
  online: boolean;
  error: string | null;
}

/** A 409 that keeps coming back means the stream cannot build a request the server takes. */
const MAX_CONFLICTS = 10;

function messageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string' && b.message) return b.message;
    if (typeof b.error === 'string' && b.error) return b.error;
  }
  return 'The server refused a change.';
}

/** One stream's queue and its sender loop. */
export class Outbox<I, S> {
  /** Every stored intent of the stream, whoever queued it. */
  private items: OutboxItem<I>[] = [];
  /** Taken by the server, not yet shown by the live state (see OutboxSnapshot.answered). */
  private answered: AnsweredItem<I>[] = [];
  /** The newest sequence number the live state has shown. */
  private liveSeq = -Infinity;
  private base: S | null = null;
  private waitFor: number | null = null;
  private online: boolean;
  private error: string | null = null;
  private snap: OutboxSnapshot<I>;
  private readonly listeners = new Set<() => void>();
  private draining = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private saving: Promise<void> = Promise.resolve();
  private readonly offConnectivity: () => void;
  private readonly offUser: () => void;
  readonly ready: Promise<void>;

  constructor(
    private readonly stream: OutboxStream<I, S>,
    private readonly deps: OutboxDeps,
  ) {
    this.online = deps.connectivity.isOnline();
    this.snap = this.makeSnapshot();
    this.offConnectivity = deps.connectivity.onChange(() => {
      this.online = deps.connectivity.isOnline();
      this.changed();
      this.wake?.();
    });
    this.offUser = deps.user.onChange(() => {
      this.changed();
      this.wake?.();
      void this.drain();
    });
    // Intents queued before a reload go first, in their order. Those queued before owners
    // were kept are taken as the signed-in user's, as they were before.
    this.ready = deps.store.list(stream.name).then(
      (stored) => {
        const known = new Set(this.items.map((i) => i.id));
        const uid = deps.user.uid();
        this.items = [
          ...(stored as OutboxItem<I>[])
            .filter((i) => !known.has(i.id))
            .map((i) => (i.owner === undefined && uid !== null ? { ...i, owner: uid } : i)),
          ...this.items,
        ];
        this.changed();
        void this.drain();
      },
      () => {
        this.error =
          'Changes cannot be kept on this device; keep this page open until they are sent.';
        this.changed();
      },
    );
  }

  snapshot = (): OutboxSnapshot<I> => this.snap;

  /** How many intents wait, whoever queued them. */
  queued(): number {
    return this.items.length;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The newest state the screen's live topic shows. */
  setBase(state: S | null): void {
    if (state === null) return;
    const seq = this.stream.seqOf(state);
    if (seq > this.liveSeq) {
      this.liveSeq = seq;
      const shown = this.answered.filter((a) => a.seq <= seq);
      if (shown.length) {
        this.answered = this.answered.filter((a) => a.seq > seq);
        this.changed();
      }
    }
    if (this.base === null || this.stream.seqOf(state) >= this.stream.seqOf(this.base)) {
      this.base = state;
      this.wake?.();
    }
  }

  enqueue(intent: I): void {
    const owner = this.deps.user.uid();
    if (owner === null) {
      // The input screens are for signed-in users only; nobody could send this.
      this.error = 'Sign in again to keep changes.';
      this.changed();
      return;
    }
    const id = newId();
    const item: OutboxItem<I> = {
      id,
      stream: this.stream.name,
      intent,
      key: id,
      conflicts: 0,
      owner,
    };
    this.items = [...this.items, item];
    this.error = null;
    this.changed();
    // Begun now, not behind the previous save: the store keeps the intent before this returns,
    // so a reload or a closed tab right after the tap cannot take it.
    const stored = this.deps.store.put(item).catch(() => undefined);
    this.saving = this.saving
      .then(() => stored)
      .then(() => {
        void this.drain();
      });
  }

  stop(): void {
    this.stopped = true;
    this.offConnectivity();
    this.offUser();
    this.wake?.();
  }

  /** The signed-in user's intents, the only ones shown and sent. */
  private mine(): OutboxItem<I>[] {
    const uid = this.deps.user.uid();
    return this.items.filter((i) => i.owner === uid);
  }

  private makeSnapshot(): OutboxSnapshot<I> {
    const uid = this.deps.user.uid();
    return {
      items: this.mine(),
      answered: this.answered.filter((a) => a.owner === uid),
      online: this.online,
      error: this.error,
    };
  }

  private changed(): void {
    this.snap = this.makeSnapshot();
    for (const l of this.listeners) l();
  }

  /** Waits up to `ms`, or until something may let the loop go on (online, new base, stop). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private async update(
    item: OutboxItem<I>,
    change: Partial<OutboxItem<I>>,
  ): Promise<OutboxItem<I>> {
    const next = { ...item, ...change };
    this.items = this.items.map((i) => (i.id === item.id ? next : i));
    this.changed();
    await this.deps.store.put(next).catch(() => undefined);
    return next;
  }

  private async drop(item: OutboxItem<I>): Promise<void> {
    this.items = this.items.filter((i) => i.id !== item.id);
    this.changed();
    await this.deps.store.remove(item.id).catch(() => undefined);
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    await this.ready.catch(() => undefined);
    let failures = 0;
    let settleDeadline = 0;
    try {
      while (!this.stopped) {
        let item = this.mine()[0];
        if (!item) break;
        if (!this.deps.connectivity.isOnline()) {
          await this.pause(reconnectDelayMs(failures, this.deps.random));
          continue;
        }
        if (this.stream.needsBase && this.base === null) {
          await this.pause(60_000);
          continue;
        }
        if (
          this.waitFor !== null &&
          (this.base === null || this.stream.seqOf(this.base) < this.waitFor) &&
          Date.now() < settleDeadline
        ) {
          await this.pause(settleDeadline - Date.now());
          continue;
        }
        this.waitFor = null;
        if (!item.request) {
          const request = this.stream.build(item.intent, this.base);
          if (!request) {
            await this.drop(item);
            continue;
          }
          item = await this.update(item, { request });
        }
        const request = item.request!;
        // Someone else may have signed in while the request was being built.
        if (item.owner !== this.deps.user.uid()) continue;
        let answer: OutboxAnswer;
        try {
          answer = await this.deps.send(request, item.key);
        } catch {
          this.setOnline(false);
          await this.pause(reconnectDelayMs(failures++, this.deps.random));
          continue;
        }
        this.setOnline(true);
        if (answer.status >= 200 && answer.status < 300) {
          failures = 0;
          const settled = this.stream.settle?.(request, this.base, answer.body) ?? null;
          if (settled && 'base' in settled) this.base = settled.base;
          else if (settled) {
            this.waitFor = settled.waitFor;
            settleDeadline = Date.now() + (this.deps.settleTimeoutMs ?? 3000);
          }
          const madeSeq = !settled
            ? null
            : 'base' in settled
              ? this.stream.seqOf(settled.base)
              : settled.waitFor;
          // Kept in sight until the live state shows it (in the same change as the drop, so
          // no render sees the intent in neither list).
          if (madeSeq !== null && madeSeq > this.liveSeq) {
            this.answered = [...this.answered, { ...item, request, seq: madeSeq }];
          }
          await this.drop(item);
        } else if (answer.status === 409 && item.conflicts < MAX_CONFLICTS) {
          const state = this.stream.stateFrom409(answer.body);
          if (state === null) {
            await this.refuse(item, answer.body);
            continue;
          }
          this.base = state;
          const conflicts = item.conflicts + 1;
          // The 409 changed nothing; a new key keeps the rebuilt request from being taken for a
          // different body under the old one.
          await this.update(item, {
            request: undefined,
            conflicts,
            key: `${item.id}_${conflicts}`,
          });
        } else if (answer.status === 429 || answer.status >= 500) {
          await this.pause(answer.retryAfterMs ?? reconnectDelayMs(failures++, this.deps.random));
        } else {
          await this.refuse(item, answer.body);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async refuse(item: OutboxItem<I>, body: unknown): Promise<void> {
    await this.drop(item);
    this.error = messageOf(body);
    this.changed();
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.changed();
  }
}

// --- The browser's storage, transport and connectivity ---

const DB_NAME = 'sagan-outbox';
const STORE = 'intents';

const tx = objectStore(DB_NAME, STORE, (db) => {
  // The auto-increment key keeps the order intents were queued in.
  const store = db.createObjectStore(STORE, { keyPath: 'n', autoIncrement: true });
  store.createIndex('id', 'id', { unique: true });
  store.createIndex('stream', 'stream');
});

/**
 * IndexedDB keeps a write only once its transaction commits, some milliseconds after the call,
 * and a page that goes away meanwhile (a reload, a closed tab) loses it. So an item is first
 * written to localStorage, which keeps it at once, and forgotten there once IndexedDB has it;
 * `list` takes back what IndexedDB never got.
 */
const HELD_PREFIX = 'sagan:outbox:';
let heldCount = 0;

interface HeldItem {
  item: OutboxItem<unknown>;
  /** The order items were held in, across reloads. */
  at: number;
}

const heldKey = (id: string) => HELD_PREFIX + id;

function holdLocally(item: OutboxItem<unknown>): string | null {
  const text = JSON.stringify({ item, at: Date.now() * 1000 + (heldCount++ % 1000) });
  try {
    localStorage.setItem(heldKey(item.id), text);
    return text;
  } catch {
    // Full or refused: IndexedDB still gets it, after a few milliseconds.
    return null;
  }
}

/** Forgets the held copy, unless a later write of the same item has replaced it. */
function letGo(id: string, text: string | null): void {
  if (text !== null && localStorage.getItem(heldKey(id)) === text)
    localStorage.removeItem(heldKey(id));
}

function heldItems(stream: string): OutboxItem<unknown>[] {
  const held: HeldItem[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(HELD_PREFIX)) continue;
    try {
      const row = JSON.parse(localStorage.getItem(key) ?? 'null') as HeldItem | null;
      if (row?.item.stream === stream) held.push(row);
    } catch {
      localStorage.removeItem(key);
    }
  }
  return held.sort((a, b) => a.at - b.at).map((h) => h.item);
}

async function putInIndexedDb(item: OutboxItem<unknown>): Promise<void> {
  const store = await tx('readwrite');
  const existing = (await request(store.index('id').get(item.id))) as { n: number } | undefined;
  store.put(existing ? { ...item, n: existing.n } : item);
  const done = store.transaction;
  await new Promise<void>((resolve, reject) => {
    done.oncomplete = () => resolve();
    done.onerror = () => reject(done.error);
    done.onabort = () => reject(done.error);
  });
}

const indexedDbStore: OutboxStore = {
  async list(stream) {
    const rows = await request((await tx('readonly')).index('stream').getAll(stream));
    const stored = (rows as (OutboxItem<unknown> & { n: number })[])
      .sort((a, b) => a.n - b.n)
      .map(({ n: _n, ...item }) => item);
    const held = heldItems(stream);
    if (!held.length) return stored;
    // A held copy is the item's newest write: it replaces what IndexedDB has, or comes after.
    const newest = new Map(held.map((item) => [item.id, item]));
    const items = [
      ...stored.map((item) => newest.get(item.id) ?? item),
      ...held.filter((item) => !stored.some((s) => s.id === item.id)),
    ];
    for (const item of held) await indexedDbStore.put(item);
    return items;
  },
  async put(item) {
    const text = holdLocally(item);
    await putInIndexedDb(item);
    letGo(item.id, text);
  },
  async remove(id) {
    localStorage.removeItem(heldKey(id));
    const store = await tx('readwrite');
    const key = await request(store.index('id').getKey(id));
    if (key !== undefined) await request(store.delete(key));
  },
};

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const fetchSend: OutboxSend = async (req, idempotencyKey) => {
  const headers: Record<string, string> = { [CSRF_HEADER]: '1', 'Idempotency-Key': idempotencyKey };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${API_PATH}${req.path}`, {
    method: req.method,
    headers,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    credentials: 'same-origin',
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
};

const browserConnectivity: Connectivity = {
  isOnline: () => navigator.onLine,
  onChange(listener) {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
    return () => {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    };
  },
};

// One outbox per stream for the tab: two components of one screen share its queue.
const outboxes = new Map<string, { box: Outbox<unknown, unknown>; users: number }>();

function outboxOf<I, S>(stream: OutboxStream<I, S>): Outbox<I, S> {
  let entry = outboxes.get(stream.name);
  if (!entry) {
    const box = new Outbox(stream, {
      store: indexedDbStore,
      send: fetchSend,
      connectivity: browserConnectivity,
      user: { uid: deviceUid, onChange: onDeviceUserChange },
    });
    entry = { box: box as Outbox<unknown, unknown>, users: 0 };
    outboxes.set(stream.name, entry);
  }
  return entry.box as Outbox<I, S>;
}

function hold(name: string): () => void {
  const entry = outboxes.get(name);
  if (!entry) return () => undefined;
  entry.users++;
  return () => {
    if (--entry.users > 0) return;
    // Kept a while: leaving the screen must not strand a change already tapped.
    setTimeout(() => {
      // Also another user's: they are sent when that user signs in again in this tab.
      if (entry.users > 0 || entry.box.queued() > 0) return;
      entry.box.stop();
      outboxes.delete(name);
    }, 30_000);
  };
}

export interface UseOutbox<I> extends OutboxSnapshot<I> {
  enqueue(intent: I): void;
}

/** The outbox of `stream` (one per stream name in the tab), fed the screen's live state. */
export function useOutbox<I, S>(stream: OutboxStream<I, S>, live: S | null): UseOutbox<I> {
  const [box] = useState(() => outboxOf(stream));
  useEffect(() => hold(stream.name), [stream.name]);
  useEffect(() => box.setBase(live), [box, live]);
  const snap = useSyncExternalStore(box.subscribe, box.snapshot, box.snapshot);
  return { ...snap, enqueue: (intent: I) => box.enqueue(intent) };
}

/**
 * One write under an Idempotency-Key, sent at once rather than queued (a form's submit, a clock
 * button): a key made when the form opens makes a double submit one effect. Throws an Error
 * with a sentence fit to show.
 */
export async function writeOnce<T>(request: OutboxRequest, key: string = newId()): Promise<T> {
  let answer: OutboxAnswer;
  try {
    answer = await fetchSend(request, key);
  } catch {
    throw new Error('Could not reach the server. Check your connection and try again.');
  }
  if (answer.status < 200 || answer.status >= 300) throw new Error(messageOf(answer.body));
  return answer.body as T;
}
