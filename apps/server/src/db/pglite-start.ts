// How PGlite is started, in its own thread (pglite-worker.ts) or in the server's (db.ts,
// PGLITE_THREAD=main): the same options either way.
import v8 from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { WorkerOptions } from './pglite-protocol.ts';

export function startPglite({ sharedBuffers, ...options }: WorkerOptions): PGlite {
  if (sharedBuffers) {
    options.startParams = [
      ...(options.startParams ?? PGlite.defaultStartParams),
      '-c',
      `shared_buffers=${sharedBuffers}`,
    ];
  }
  // V8 runs a WebAssembly function on its baseline code until the function has run through a
  // budget (V8's default: about 1.8 MB of its code), then compiles it again, optimised, on its
  // helper threads. PostgreSQL's start runs thousands of functions past that budget once, and a
  // start spent half its CPU (0.75 s) and ~40 MB optimising them. With a budget 100× larger,
  // start-up code stays on baseline code; the statements a server runs all day still reach the
  // optimised tier after a few hundred writes (bench:write-cpu: the same CPU per write). Set
  // before PGlite compiles; V8's flags are the process's, and the server runs no other
  // WebAssembly.
  v8.setFlagsFromString('--wasm-tiering-budget=180000000');
  return new PGlite(options satisfies PGliteOptions);
}
