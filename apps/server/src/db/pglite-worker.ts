// The embedded database's own thread (db.ts starts it): PGlite's WebAssembly and
// its protocol layer are most of a write's CPU, and on the main thread every query stalled
// every socket. Only PGlite and Node are imported here, so the thread stays small.
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Reply, Request, SyncChannel, WorkerOptions } from './pglite-protocol.ts';
import { momentOf } from './moment.ts';
import { pgliteStatements } from './pglite-prepared.ts';
import { startPglite } from './pglite-start.ts';
import { count, sqlLabel, trace } from './trace.ts';

// Run as a process of its own (db.ts initdbOnce), with the options as its argument: a new data
// folder's initdb and its migrations, and nothing else.
const port = parentPort;
const { sync, ...options } = (
  port ? workerData : JSON.parse(process.argv[2] ?? '{}')
) as WorkerOptions & {
  sync?: SyncChannel;
};
const pglite = startPglite(options);
const statements = pgliteStatements(pglite);
if (!port) await createDataDir(pglite);

interface OpenTx {
  t: Transaction;
  /** Ends the transaction: commit when true, roll back otherwise. */
  end(commit: boolean): void;
  /** The request that ended it, to answer once the commit is durable. */
  endId?: number;
  endSync?: boolean;
  /** When the end was asked, for SAGAN_DB_TRACE. */
  endAt?: number | undefined;
}
const transactions = new Map<number, OpenTx>();
const unlisteners = new Map<number, () => Promise<void>>();
/** Thrown inside PGlite's transaction() so that it rolls back. */
const rollback = Symbol('rollback');

/** A reply: to a `sync` request on the channel the main thread is blocked on, woken at once. */
function send(reply: Reply, toSync = false): void {
  if (!toSync || !sync) return port!.postMessage(reply);
  sync.port.postMessage(reply);
  Atomics.store(sync.flag, 0, 1);
  Atomics.notify(sync.flag, 0);
}

/** Errors cross the thread as plain fields: structured cloning drops `code`, `constraint`… */
function errorReply(id: number, err: unknown): Reply {
  if (!(err instanceof Error)) return { id, ok: false, error: { message: String(err) } };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) {
    if (v === undefined || typeof v === 'function') continue;
    fields[k] = v;
  }
  return {
    id,
    ok: false,
    error: { ...fields, name: err.name, message: err.message, stack: err.stack },
  };
}

function begin(req: Extract<Request, { op: 'begin' }>): void {
  const { id, snapshot } = req;
  const toSync = !!req.sync;
  let begun = false;
  const asked = trace && performance.now();
  pglite
    .transaction(async (t) => {
      if (snapshot) await t.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const commit = await new Promise<boolean>((end) => {
        transactions.set(id, { t, end });
        begun = true;
        // A failed first statement leaves the transaction open, to be rolled back by the caller.
        statements.txQuery(t, req.sql, req.params).then(
          (rows) => send({ id, ok: true, value: rows }, toSync),
          (err: unknown) => send(errorReply(id, err), toSync),
        );
        if (asked && performance.now() - asked > 3) {
          trace!('begin', asked, { ms: +(performance.now() - asked).toFixed(1) });
        }
      });
      if (!commit) throw rollback;
    })
    .then(
      () => finish(id, undefined),
      (err: unknown) => {
        if (!begun) send(errorReply(id, err), toSync);
        else finish(id, err === rollback ? undefined : err);
      },
    );
}

function finish(txId: number, err: unknown): void {
  const tx = transactions.get(txId);
  transactions.delete(txId);
  if (tx?.endId === undefined) return;
  if (tx.endAt && performance.now() - tx.endAt > 3) {
    trace!('end', tx.endAt, { ms: +(performance.now() - tx.endAt).toFixed(1) });
  }
  send(
    err === undefined ? { id: tx.endId, ok: true, value: null } : errorReply(tx.endId, err),
    tx.endSync,
  );
}

async function handle(req: Request): Promise<unknown> {
  switch (req.op) {
    case 'call': {
      // Any PGlite method by name, so that a Db method added later needs no new message.
      const method = (pglite as unknown as Record<string, unknown>)[req.method];
      if (typeof method !== 'function') throw new Error(`PGlite has no method ${req.method}`);
      return (method as (...args: unknown[]) => unknown).apply(pglite, req.args);
    }
    case 'query':
      return statements.query(req.sql, req.params);
    case 'txQuery': {
      const tx = transactions.get(req.tx);
      if (!tx) throw new Error('the transaction has ended');
      return statements.txQuery(tx.t, req.sql, req.params);
    }
    case 'listen': {
      const unlisten = await pglite.listen(req.channel, (payload) =>
        send({ notify: req.id, payload }),
      );
      unlisteners.set(req.id, unlisten);
      return null;
    }
    case 'dump':
      // Inside a transaction no other statement or transaction runs (PGlite serialises them),
      // so the digests and the files describe one moment; writes queue meanwhile.
      return pglite.transaction(async (t) => {
        const started = performance.now();
        const moment = await momentOf({
          query: async <T>(sql: string, params?: unknown[]) => (await t.query<T>(sql, params)).rows,
        } as Parameters<typeof momentOf>[0]);
        // Dirty pages reach the files first, so the copy opens without replaying the log.
        await t.query('CHECKPOINT');
        const blob = await pglite.dumpDataDir('none');
        return {
          tar: new Uint8Array(await blob.arrayBuffer()),
          moment,
          heldMs: Math.round(performance.now() - started),
        };
      });
    case 'unlisten': {
      const unlisten = unlisteners.get(req.listenId);
      unlisteners.delete(req.listenId);
      await unlisten?.();
      return null;
    }
  }
}

// A main thread blocked on a sync reply learns that none will come.
process.on('exit', () => {
  if (!sync) return;
  Atomics.store(sync.flag, 0, 2);
  Atomics.notify(sync.flag, 0);
});

port!.on('message', (req: Request) => {
  if (req.op === 'begin') return begin(req);
  if (req.op === 'end') {
    const tx = transactions.get(req.tx);
    if (!tx) return send(errorReply(req.id, new Error('the transaction has ended')), req.sync);
    tx.endId = req.id;
    tx.endSync = req.sync;
    tx.endAt = trace && performance.now();
    return tx.end(req.commit);
  }
  const toSync = req.op === 'txQuery' && req.sync;
  const started = trace && performance.now();
  handle(req).then(
    (value) => {
      if (started) {
        const ms = performance.now() - started;
        count('ops');
        count('opMs', ms);
        if (ms > 3)
          trace!('op', started, {
            op: req.op,
            sql: 'sql' in req ? sqlLabel(req.sql) : undefined,
            ms: +ms.toFixed(1),
          });
      }
      send({ id: req.id, ok: true, value }, toSync);
    },
    (err: unknown) => send(errorReply(req.id, err), toSync),
  );
});

pglite.waitReady.then(
  () => send({ id: 0, ok: true, value: null }),
  (err: unknown) => send(errorReply(0, err)),
);

/**
 * A new folder's initdb and migrations peak far above what the database needs afterwards; here,
 * in a process that exits, their peak is not kept, and the server's first start on the folder
 * idles as a restart does. The modules that migrate load only in this process, not the thread.
 */
async function createDataDir(db: PGlite): Promise<never> {
  await db.waitReady;
  const [{ pgliteDb }, { migrate }] = await Promise.all([
    import('./db.ts'),
    import('./migrate.ts'),
  ]);
  await migrate(pgliteDb(db, statements));
  await db.close();
  process.exit(0);
}
