// Compiles the server to JavaScript (apps/server/dist), so that production runs no TypeScript
// transpiler: the server and the embedded database's thread, with their npm packages bundled in,
// so a start reads a few files instead of Node's loader resolving and reading hundreds in
// node_modules one by one (most of a start's time on a small box). `npm run build` runs it, and
// `npm start` (scripts/start.mjs) when the build is missing or older than its sources.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'apps/server/src');
const serverDist = path.join(root, 'apps/server/dist');

fs.rmSync(serverDist, { recursive: true, force: true });
await build({
  // Flat, side by side: db.ts finds the database thread's file beside the server's.
  entryPoints: {
    server: path.join(src, 'server.ts'),
    'pglite-worker': path.join(src, 'db/pglite-worker.ts'),
  },
  outdir: serverDist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // A third less source (4.5 → 2.9 MB for the app's chunk): V8 keeps a module's source for
  // its lazily compiled functions, so the main thread's heap is ~8 MB smaller, and a start
  // parses less. Names are kept, so stack traces still read.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // The app's modules load after the database has started (server.ts imports them dynamically):
  // a chunk of their own, beside the entries, where db.ts and migrate.ts find their files.
  splitting: true,
  chunkNames: '[name]-[hash]',
  // Left to node_modules: packages that read files beside their own code (PGlite's WebAssembly,
  // swagger-ui's static files), sharp's native module, and ws's optional native helpers; and
  // @fastify/cookie, which loads its own `cookie` (v2) with import(): bundled, that import gave
  // the CommonJS module's namespace without its named exports, and every Set-Cookie threw.
  // And pg, loaded only by a server on PostgreSQL: from node_modules, so that a test can see
  // that a server on PGlite never loads it.
  external: [
    '@electric-sql/pglite',
    '@fastify/cookie',
    'pg',
    '@fastify/swagger-ui',
    'sharp',
    'bufferutil',
    'utf-8-validate',
  ],
  // CommonJS packages in an ES module bundle call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __sagan_createRequire } from 'node:module'; const require = __sagan_createRequire(import.meta.url);",
  },
});
// migrate.ts reads its SQL beside the module that runs it.
fs.cpSync(path.join(src, 'db/migrations'), path.join(serverDist, 'migrations'), {
  recursive: true,
});
