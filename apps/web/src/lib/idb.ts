/** An IndexedDB request as a promise. */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * The one object store of a small database of its own (the outbox's queue, the kept states):
 * opened once per tab, made by `create` on first use, and answered in a new transaction on
 * each call. When another tab deletes the database (a sign-out deletes the kept states) this
 * tab lets go of it and opens it anew next time.
 */
export function objectStore(
  dbName: string,
  storeName: string,
  create: (db: IDBDatabase) => void,
): (mode: IDBTransactionMode) => Promise<IDBObjectStore> {
  let dbPromise: Promise<IDBDatabase> | null = null;
  const openDb = () =>
    (dbPromise ??= new Promise((resolve, reject) => {
      const open = indexedDB.open(dbName, 1);
      open.onupgradeneeded = () => create(open.result);
      open.onsuccess = () => {
        const db = open.result;
        db.onversionchange = () => {
          db.close();
          dbPromise = null;
        };
        resolve(db);
      };
      open.onerror = () => {
        dbPromise = null;
        reject(open.error);
      };
    }));
  return async (mode) => (await openDb()).transaction(storeName, mode).objectStore(storeName);
}
