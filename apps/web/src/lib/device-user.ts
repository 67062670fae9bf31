import type { SessionUser } from '@sagan/shared/auth';
import { reader } from './shape.ts';
import * as shapes from './shapes.ts';

/** Reads a user as the shared sessionUserSchema does, without zod (shape.ts). */
export const sessionUserReader = reader<SessionUser>(shapes.sessionUser);

/**
 * Who uses this device (DESIGN §10: cached state per user, purged on sign-out).
 *
 * The user is the one the session check last answered, kept in localStorage so that an input
 * screen opened offline (from the service worker's copy) knows whose it is; the server still
 * checks every write. When the user changes (sign-out, "sign out everywhere", a session the
 * server ended, someone else signing in) what the device kept of the games and counts opened
 * (kept.ts) is deleted. The outbox's queue is not: it belongs to whoever queued it and waits
 * for them (outbox.ts).
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
    const parsed = sessionUserReader.safeParse(
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
  if (before === (user?.uid ?? null)) return;
  forgetKept();
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

/** The IndexedDB database of kept states (kept.ts), named here so a sign-out can delete it. */
export const KEPT_DB = 'sagan-kept';

/**
 * Deletes every kept state. Kept by uid, they could be deleted for everyone but the new user;
 * deleting the database instead keeps the IndexedDB code off the first load of every page.
 */
function forgetKept(): void {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && LOCAL_PREFIXES.some((p) => key.startsWith(p))) localStorage.removeItem(key);
    }
  } catch {
    // No storage: nothing was kept there.
  }
  try {
    // Open connections (kept.ts) close on the version change this makes, so it is not blocked.
    indexedDB.deleteDatabase(KEPT_DB);
  } catch {
    // No IndexedDB: nothing was kept there either.
  }
}
