// Messages between the main thread (pglite-remote.ts) and the database's thread
// (pglite-worker.ts). Requests carry an id; each gets one Reply with that id, except
// notifications, which name the id of the listen request they answer.
import type { MessagePort } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';

/** PGlite's options that can cross to a thread (no functions, no filesystem objects). */
export type WorkerOptions = Pick<
  PGliteOptions,
  'dataDir' | 'loadDataDir' | 'initialMemory' | 'startParams' | 'relaxedDurability'
> & {
  /** PostgreSQL's shared_buffers (e.g. '16MB'), added to PGlite's start parameters. */
  sharedBuffers?: string;
};

export type Request =
  | { id: number; op: 'call'; method: string; args: unknown[] }
  | { id: number; op: 'query'; sql: string; params: unknown[] | undefined }
  /** Begins a transaction (its id is this request's) with its first statement: the rows. */
  | {
      id: number;
      op: 'begin';
      snapshot: boolean;
      sql: string;
      params: unknown[] | undefined;
      sync?: boolean;
    }
  | {
      id: number;
      op: 'txQuery';
      tx: number;
      sql: string;
      params: unknown[] | undefined;
      sync?: boolean;
    }
  | { id: number; op: 'end'; tx: number; commit: boolean; sync?: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listenId: number }
  /** The data folder as a tar, with the moment it holds (Db.dumpDataDir). */
  | { id: number; op: 'dump' };

/**
 * What the thread is given besides PGlite's options: a port whose replies the main thread takes
 * with receiveMessageOnPort, and a flag it waits on with Atomics.wait. Requests marked `sync`
 * are answered there (see db.ts pgliteWorkerDb).
 */
export interface SyncChannel {
  port: MessagePort;
  /** Int32Array over a SharedArrayBuffer: index 0 becomes 1 when a sync reply is posted. */
  flag: Int32Array;
}

/** Request 0 is the thread's start: it is answered once PGlite is ready. */
export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string } & Record<string, unknown> }
  | { notify: number; payload: string };
