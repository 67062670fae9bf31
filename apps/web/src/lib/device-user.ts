import { useEffect, useRef, useState } from 'react';
import { sessionUserSchema, type SessionUser } from '@sagan/shared/auth';

/**
 * Who uses this device, and what is kept on it for them (DESIGN §10: cached state per user,
 * purged on sign-out).
 *
 * The user is the one the session check last answered, kept in localStorage so that an input
 * screen opened offline (from the service worker's copy) knows whose it is; the server still
 * checks every write. The last state of each game and play count the user opened is kept in
 * IndexedDB under their uid, so the screen shows it offline. When the user changes (sign-out,
 * "sign out everywhere", a session the server ended, someone else signing in) every state
 * kept for anyone else is deleted. The outbox's queue is not: it belongs to whoever queued it
 * and waits for them (outbox.ts).
 */

const REMEMBERED_USER = 'sagan:user';
/**
 * What screens keep in localStorage about the user's games: the scorekeeper's last state (before
 * it was kept per user) and the sideline counter's lineup. Deleted with the kept states.
 */
const LOCAL_PREFIXES = ['sagan:scoregame:', 'sagan-onfield:'];

const listeners = new Set<() => void>();

export function rememberedUser(): SessionUser | null {
  try {
    const parsed = sessionUserSchema.safeParse(
      JSON.parse(localStorage.getItem(REMEMBERED_USER) ?? 'null'),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The uid of the user signed in on this device (offline: the last one the server named). */
export function deviceUid(): string | null {
  return rememberedUser()?.uid ?? null;
}

/** Called with every answer of the session check, sign-in and sign-out. */
export function remember(user: SessionUser | null): void {
  const before = deviceUid();
  try {
    if (user) localStorage.setItem(REMEMBERED_USER, JSON.stringify(user));
    else localStorage.removeItem(REMEMBERED_USER);
  } catch {
    // No storage (private mode): nothing remembered, nothing kept.
  }
  const uid = user?.uid ?? null;
  if (before === uid) return;
  void purgeKept(uid);
  for (const l of listeners) l();
}

/** Calls `listener` when the device's user changes, in this tab or in another. */
export function onDeviceUserChange(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === REMEMBERED_USER || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

// --- The last state of each screen, per user, in IndexedDB ---

const DB_NAME = 'sagan-kept';
const STORE = 'states';

interface KeptRow {
  uid: string;
  /** What the state is of, e.g. `scoregame:{gameKey}`. */
  name: string;
  value: unknown;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let dbPromise: Promise<IDBDatabase> | null = null;
function openDb(): Promise<IDBDatabase> {
  return (dbPromise ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(STORE, { keyPath: ['uid', 'name'] });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => {
      dbPromise = null;
      reject(open.error);
    };
  }));
}

async function store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await openDb()).transaction(STORE, mode).objectStore(STORE);
}

async function readKept(uid: string, name: string): Promise<unknown> {
  const row = (await request((await store('readonly')).get([uid, name]))) as KeptRow | undefined;
  return row?.value;
}

async function writeKept(uid: string, name: string, value: unknown): Promise<void> {
  const row: KeptRow = { uid, name, value };
  await request((await store('readwrite')).put(row));
}

/** Deletes every kept state that is not `keep`'s (all of them when nobody is signed in). */
async function purgeKept(keep: string | null): Promise<void> {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && LOCAL_PREFIXES.some((p) => key.startsWith(p))) localStorage.removeItem(key);
    }
  } catch {
    // No storage: nothing was kept there.
  }
  try {
    const states = await store('readwrite');
    const keys = (await request(states.getAllKeys())) as [string, string][];
    await Promise.all(
      keys.filter(([uid]) => uid !== keep).map((key) => request(states.delete(key))),
    );
  } catch {
    // No IndexedDB: nothing was kept there either.
  }
}

/**
 * The state of `name` as this device's user last saw it, kept while `live` is known: a screen
 * opened offline shows it until the live topic is back. `undefined` until the device has
 * answered (so a screen waits for it rather than flash an empty state), then null or the state.
 * `version` (the topic's sequence number, say) tells when `live` is new and worth writing.
 * `parse` (a module-level function: its identity must not change) checks what storage gives
 * back, which an older build may have written.
 */
export function useKept<T>(
  name: string,
  live: T | null,
  version: string | number | undefined,
  parse: (value: unknown) => T | null,
): T | null | undefined {
  const [kept, setKept] = useState<{ name: string; value: T | null } | null>(null);
  useEffect(() => {
    const uid = deviceUid();
    let current = true;
    (uid ? readKept(uid, name) : Promise.resolve(undefined)).then(
      (value) => current && setKept({ name, value: value === undefined ? null : parse(value) }),
      () => current && setKept({ name, value: null }),
    );
    return () => {
      current = false;
    };
  }, [name, parse]);
  const written = useRef<string | null>(null);
  useEffect(() => {
    const uid = deviceUid();
    const at = `${uid}\n${name}\n${version}`;
    if (live === null || version === undefined || !uid || written.current === at) return;
    written.current = at;
    writeKept(uid, name, live).catch(() => undefined); // not kept: the screen still works online
  }, [name, version, live]);
  return kept?.name === name ? kept.value : undefined;
}
