// Compiles the server to JavaScript (apps/server/dist), so that production runs no TypeScript
// transpiler: one bundle for the server and one for the embedded database's thread, with the
// shared package inlined and every npm package left to node_modules. `npm run build` runs it,
// and `npm start` (scripts/start.mjs) when the build is missing or older than its sources.
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
  logLevel: 'warning',
  plugins: [
    {
      name: 'packages-external',
      setup(b) {
        // npm packages load from node_modules as they are; the workspace's own TypeScript
        // (@sagan/shared) is compiled in.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@sagan/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
// migrate.ts reads its SQL beside the module that runs it.
fs.cpSync(path.join(src, 'db/migrations'), path.join(serverDist, 'migrations'), {
  recursive: true,
});
