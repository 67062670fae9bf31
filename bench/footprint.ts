// `npm run bench:footprint`: what a club's small box pays to run Sagan, beside a Fastify
// hello-world as the floor. Idle RSS of the server process per database (PGlite on a new data
// folder, the same folder restarted, PostgreSQL), with 1,000 and 5,000 idle viewers on PGlite,
// and start → first answer that reads the database (restarted folder, no demo), with the CPU
// the server spent until then (all its threads: steadier than the wall time on a shared
// machine). The server is the compiled one (apps/server/dist, built first) with the built web
// app and its server-rendering bundle (apps/web/dist, built when missing), run as production runs it,
// unpinned: the database's thread starts on one core while the app loads on the other. The
// floor's starts alternate with the restarted PGlite ones, so both meet the same machine.
// BENCH_RUNS=n repeats each start (median shown); BENCH_VIEWERS=1000,5000 sets the viewers.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { API_PATH, WS_PATH } from '@sagan/shared/http';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { startPostgres } from '../scripts/lib/postgres.ts';
import { SAGAN_READY, startServer } from '../scripts/lib/server.ts';
import { root, settledRssKb as gcRssKb, sleep, stopServers, type Server } from './lib/procs.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const VIEWERS = (process.env.BENCH_VIEWERS ?? '1000,5000').split(',').map(Number);
const SERVER_JS = path.join(root, 'apps/server/dist/server.js');
const GC_FLAGS = ['--expose-gc', '--import', './bench/lib/gc-on-signal.mjs'];
/**
 * How `npm start` and the systemd unit in docs/deploy.md run the server: glibc returns freed
 * memory to the system past 128 KB at the heap's top (its default threshold rises to tens of
 * MB after PGlite's large start-up buffers are freed, and keeps them). V8's young generation
 * keeps Node's default size: the memory reducer hands it back once the server is quiet (see
 * QUIET_MS). BENCH_NODE_FLAGS="--flag ..." runs the production rows with other Node flags.
 */
const PRODUCTION_ENV = { MALLOC_TRIM_THRESHOLD_: '131072' };
const PRODUCTION_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

// Built every run (a second): an older build would be measured as this code.
execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
// A start loads the web build's server-rendering bundle too: as `npm start` does, built when
// missing (a stale one only differs in the pages, not in what a start loads).
const WEB_DIST = path.join(root, 'apps/web/dist');
if (!fs.existsSync(path.join(WEB_DIST, '.ssr', 'entry-server.js'))) {
  execFileSync('npm', ['run', 'build', '-w', '@sagan/web'], { cwd: root, stdio: 'inherit' });
}

/**
 * The compiled server as production starts it (or with Node's and glibc's defaults), with a GC
 * on SIGUSR2 for settled RSS.
 */
function startCompiled(env: Record<string, string>, defaults = false): Promise<Server> {
  return startServer(
    ['node', ...GC_FLAGS, ...(defaults ? [] : PRODUCTION_FLAGS), SERVER_JS],
    {
      ...(defaults ? {} : PRODUCTION_ENV),
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: 'false',
      SIMULATE: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST,
      RATE_LIMIT_FACTOR: '100000',
      ...env,
    },
    SAGAN_READY,
  );
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU milliseconds a process has used so far, all its threads (user and system). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}

/**
 * Milliseconds from spawn to the first 200 of a request that reads the database, and the CPU
 * the server had used by then.
 */
async function timedStart(
  start: () => Promise<Server>,
  url: string,
): Promise<{ server: Server; ms: number; cpu: number }> {
  const t0 = performance.now();
  const server = await start();
  for (;;) {
    const r = await fetch(`http://127.0.0.1:${server.port}${url}`).catch(() => null);
    if (r?.ok) break;
  }
  return { server, ms: performance.now() - t0, cpu: cpuMs(server.pid) };
}

/**
 * V8 keeps a young generation grown at start (or by a burst of viewers) until its memory
 * reducer, which runs once allocation has been low for some seconds, hands it back: ~10 s after
 * the last burst here. An idle server is one that has had that time, so the readings start
 * 20 s after the server went quiet.
 */
const QUIET_MS = 20_000;

/**
 * RSS once the server is idle and it stops falling: a server just started still frees its
 * start-up buffers (and glibc hands them back) for a while after its first answer, longer on a
 * loaded machine. After QUIET_MS, a GC and a reading every half second, until two readings are
 * within 1 MB (at most 20).
 */
async function settledRssKb(pid: number): Promise<number> {
  await sleep(QUIET_MS);
  let last = await gcRssKb(pid);
  for (let i = 0; i < 20; i++) {
    const now = await gcRssKb(pid);
    if (Math.abs(now - last) < 1024) return now;
    last = now;
  }
  return last;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function openViewers(port: number, n: number): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  const subscribe = JSON.stringify({ type: 'subscribe', topic: recentGamesTopic.name() });
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, () => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${WS_PATH}`, { perMessageDeflate: false });
      sockets.push(ws);
      // Subscribed once the first frame (the subscription's state) is back.
      return new Promise<void>((resolve, reject) => {
        ws.once('open', () => ws.send(subscribe));
        ws.once('message', () => resolve());
        ws.once('error', reject);
      });
    });
    await Promise.all(batch);
  }
  return sockets;
}

const rows: Array<[string, string, string]> = [];
const loadBefore = os.loadavg();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-footprint-'));
const READS_DB = `${API_PATH}/tags`;

try {
  // The floor: Fastify alone, answering one route.
  const floorFile = path.join(tmp, 'floor.mjs');
  fs.writeFileSync(
    floorFile,
    `import Fastify from ${JSON.stringify(path.join(root, 'node_modules/fastify/fastify.js'))};
const app = Fastify();
app.get(${JSON.stringify(READS_DB)}, async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log('running at http://127.0.0.1:' + app.server.address().port + '/');`,
  );
  const floorStarts: number[] = [];
  const floorCpu: number[] = [];
  let floorRss = 0;
  const floorStart = async () => {
    const { server, ms, cpu } = await timedStart(
      () =>
        startServer(
          ['node', ...GC_FLAGS, floorFile],
          {},
          /running at http:\/\/127\.0\.0\.1:(\d+)\//,
        ),
      READS_DB,
    );
    floorStarts.push(ms);
    floorCpu.push(cpu);
    floorRss = await settledRssKb(server.pid);
    await stopServers([server]);
  };

  // PGlite: a new folder, then the same folder restarted RUNS times.
  const dataDir = path.join(tmp, 'pglite');
  const fresh = await timedStart(() => startCompiled({ DATA_DIR: dataDir }), READS_DB);
  const freshRss = await settledRssKb(fresh.server.pid);
  await stopServers([fresh.server]);
  const restartStarts: number[] = [];
  const restartCpu: number[] = [];
  let restartRss = 0;
  const viewerRss = new Map<number, number>();
  for (let i = 0; i < RUNS; i++) {
    await floorStart();
    const { server, ms, cpu } = await timedStart(
      () => startCompiled({ DATA_DIR: dataDir }),
      READS_DB,
    );
    restartStarts.push(ms);
    restartCpu.push(cpu);
    restartRss = await settledRssKb(server.pid);
    if (i === RUNS - 1) {
      let open: WebSocket[] = [];
      for (const n of VIEWERS) {
        open = open.concat(await openViewers(server.port, n - open.length));
        viewerRss.set(n, await settledRssKb(server.pid));
      }
      for (const ws of open) ws.terminate();
    }
    await stopServers([server]);
  }

  // The same folder with Node's and glibc's memory defaults: what the production settings save.
  const plain = await startCompiled({ DATA_DIR: dataDir }, true);
  const plainRss = await settledRssKb(plain.pid);
  await stopServers([plain]);

  rows.push(['idle RSS, PGlite, new data folder', mb(freshRss), mb(floorRss)]);
  rows.push(['idle RSS, PGlite, restarted folder', mb(restartRss), '']);
  rows.push(["idle RSS, PGlite, restarted, Node's memory defaults", mb(plainRss), '']);
  for (const [n, kb] of viewerRss) {
    rows.push([`RSS, PGlite, ${n.toLocaleString('en')} idle viewers`, mb(kb), '']);
  }
  rows.push([
    'start → first answer, PGlite, new folder',
    `${(fresh.ms / 1000).toFixed(2)} s`,
    `${(median(floorStarts) / 1000).toFixed(2)} s`,
  ]);
  rows.push([
    `start → first answer, PGlite, restarted (median of ${RUNS}, floor's alternating)`,
    `${(median(restartStarts) / 1000).toFixed(2)} s`,
    `${(median(floorStarts) / 1000).toFixed(2)} s`,
  ]);
  rows.push([
    `CPU used by the first answer, PGlite, restarted (median of ${RUNS}, all threads)`,
    `${(median(restartCpu) / 1000).toFixed(2)} s`,
    `${(median(floorCpu) / 1000).toFixed(2)} s`,
  ]);
  rows.push([
    'start → first answer, PGlite, restarted ÷ floor (medians)',
    `${(median(restartStarts) / median(floorStarts)).toFixed(2)}×`,
    '',
  ]);

  // PostgreSQL: a throwaway cluster of the benchmark's own.
  const cluster = await startPostgres();
  try {
    const pgStarts: number[] = [];
    let pgRss = 0;
    for (let i = 0; i < RUNS; i++) {
      const { server, ms } = await timedStart(
        () => startCompiled({ DATA_DIR: path.join(tmp, 'pg-files'), DATABASE_URL: cluster.url }),
        READS_DB,
      );
      pgStarts.push(ms);
      pgRss = await settledRssKb(server.pid);
      await stopServers([server]);
    }
    rows.push(['idle RSS, PostgreSQL (server process)', mb(pgRss), '']);
    rows.push([
      `start → first answer, PostgreSQL (median of ${RUNS})`,
      `${(median(pgStarts) / 1000).toFixed(2)} s`,
      '',
    ]);
  } finally {
    cluster.stop();
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const header: [string, string, string] = ['', 'Sagan', 'Fastify floor'];
const widths = [0, 1, 2].map((c) => Math.max(...[header, ...rows].map((r) => r[c]!.length)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
console.log(`\nfootprint (${os.cpus().length} cores, Node ${process.version}, server compiled)`);
console.log(
  `load average (1, 5, 15 min): ${load(loadBefore)} at the start, ${load(os.loadavg())} at the end`,
);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows) console.log(line(r));
