import { useEffect, useRef, useState } from 'react';
import { deviceUid, KEPT_DB } from './device-user.ts';
import { objectStore, request } from './idb.ts';

/**
 * The last state of each game and play count the user opened, kept in IndexedDB under their
 * uid (DESIGN §10), so an input screen opened offline shows it. Deleted when the device's user
 * changes (device-user.ts).
 */

const STORE = 'states';

interface KeptRow {
  uid: string;
  /** What the state is of, e.g. `scoregame:{gameKey}`. */
  name: string;
  value: unknown;
}

const store = objectStore(KEPT_DB, STORE, (db) =>
  db.createObjectStore(STORE, { keyPath: ['uid', 'name'] }),
);

async function readKept(uid: string, name: string): Promise<unknown> {
  const row = (await request((await store('readonly')).get([uid, name]))) as KeptRow | undefined;
  return row?.value;
}

async function writeKept(uid: string, name: string, value: unknown): Promise<void> {
  const row: KeptRow = { uid, name, value };
  await request((await store('readwrite')).put(row));
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
