// `npm start`: builds what is missing or older than its sources (the web app, the compiled
// server), then runs the server in this same process with the embedded database, demo data and
// live simulated games (DESIGN §7). No second Node process stays alive: signals reach the
// server's own handlers, and the memory of a launcher is not paid for.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist/index.html');
// The server-rendering bundle (docs/decisions/0013): a build from before it existed is rebuilt.
const ssrBundle = path.join(root, 'apps/web/dist/.ssr/entry-server.js');
const server = path.join(root, 'apps/server/dist/server.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    // dist-* are other build outputs (e2e, benchmarks), not sources.
    if (entry.name === 'node_modules' || entry.name.startsWith('dist')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function run(what, args) {
  console.log(`Building ${what}…`);
  // In a child that exits when done: the builders' memory and helper processes go with it.
  const build = spawnSync(args[0], args.slice(1), { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const sharedMtime = newestMtime(path.join(root, 'packages/shared/src'));
// WEB_DIST names a web app built elsewhere: it is the operator's to build.
if (!process.env.WEB_DIST) {
  const sourcesMtime = Math.max(newestMtime(path.join(root, 'apps/web')), sharedMtime);
  if (
    !fs.existsSync(dist) ||
    !fs.existsSync(ssrBundle) ||
    fs.statSync(dist).mtimeMs < sourcesMtime
  ) {
    run('the web app', ['npm', 'run', 'build', '-w', '@sagan/web']);
  }
}
const serverSources = Math.max(newestMtime(path.join(root, 'apps/server/src')), sharedMtime);
if (!fs.existsSync(server) || fs.statSync(server).mtimeMs < serverSources) {
  run('the server', [process.execPath, path.join(root, 'scripts/build-server.mjs')]);
}

process.env.DEMO ??= 'true';
// The simulator plays the demo's games: a start without the demo has no simulator either.
process.env.SIMULATE ??= process.env.DEMO;
process.chdir(root);
await import(pathToFileURL(server).href);
