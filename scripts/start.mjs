// `npm start`: builds the web app when it is missing or older than its sources, then serves
// with the embedded database, demo data and live simulated games (DESIGN §7).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist/index.html');
// The server-rendering bundle (docs/decisions/0013): a build from before it existed is rebuilt.
const ssrBundle = path.join(root, 'apps/web/dist/.ssr/entry-server.js');

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

const sourcesMtime = Math.max(
  newestMtime(path.join(root, 'apps/web')),
  newestMtime(path.join(root, 'packages/shared/src')),
);
if (!fs.existsSync(dist) || !fs.existsSync(ssrBundle) || fs.statSync(dist).mtimeMs < sourcesMtime) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@sagan/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: { DEMO: 'true', SIMULATE: 'true', ...process.env },
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
