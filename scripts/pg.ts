// The test command's throwaway PostgreSQL (run through scripts/pg.sh):
//   start -> stops the previous one, prints DATABASE_URL on stdout; state in .tmp/pg
//   stop
import fs from 'node:fs';
import path from 'node:path';
import { startPostgres, stopPostgres } from './lib/postgres.ts';
import { root } from './lib/server.ts';

const state = path.join(root, '.tmp', 'pg');

function stop(): void {
  const dirFile = path.join(state, 'dir');
  if (!fs.existsSync(dirFile)) return;
  try {
    stopPostgres(fs.readFileSync(dirFile, 'utf8').trim());
  } catch {
    // already gone: forget it all the same
  }
  fs.rmSync(state, { recursive: true, force: true });
}

const command = process.argv[2];
if (command === 'start') {
  stop();
  const cluster = await startPostgres();
  fs.mkdirSync(state, { recursive: true });
  fs.writeFileSync(path.join(state, 'dir'), `${cluster.dir}\n`);
  fs.writeFileSync(path.join(state, 'url'), `${cluster.url}\n`);
  console.log(cluster.url);
} else if (command === 'stop') {
  stop();
} else {
  console.error('usage: scripts/pg.sh start|stop');
  process.exit(2);
}
