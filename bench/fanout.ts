// bench/fanout: publish-to-receipt latency, loss and memory per viewer for Sagan's real path
// (scorekeeping API → database → fan-out) against a bare `ws` broadcast server and socket.io,
// in the same run on the same machine. Prints one table and the ratios.
//
//   npm run bench:fanout                  # N = 1000, 5000, 10000
//   npm run bench:fanout -- --smoke       # N = 200, a quick run (part of the test command)
//   npm run bench:fanout -- --n 2000 --targets sagan,ws
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { io as ioClient, type Socket } from 'socket.io-client';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
};
const SMOKE = flag('smoke');
const SIZES = (option('n') ?? (SMOKE ? '200' : '1000,5000,10000')).split(',').map(Number);
const TARGETS = (option('targets') ?? 'sagan,ws,socketio,sagan-2node').split(',');
const WARMUP = SMOKE ? 2 : 5;
const ROUNDS = SMOKE ? 10 : 40;
const INTERVAL_MS = SMOKE ? 100 : 250;
const BATCH = 250;
const CPUS = os.cpus().length;
// The server on core 0, this load generator on core 1 (when there are two).
const pin = (core: number, cmd: string[]) =>
  CPUS > 1 && fs.existsSync('/usr/bin/taskset') ? ['taskset', '-c', String(core), ...cmd] : cmd;

interface Server {
  port: number;
  pid: number;
  proc: ChildProcess;
}

function startProcess(cmd: string[], env: Record<string, string>, ready: RegExp): Promise<Server> {
  return new Promise((resolve, reject) => {
    const [bin, ...rest] = pin(0, cmd);
    const proc = spawn(bin!, rest, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve({ port: Number(m[1]), pid: proc.pid!, proc });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
    setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000).unref();
  });
}

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SCORE_RE = /"homeScore":(\d+)/;

/** One target under test: how to start it, connect a viewer, and publish a score. */
interface Target {
  name: string;
  servers: Server[];
  viewerPort: number;
  connect(onScore: (score: number) => void): Promise<() => void>;
  publish(score: number): Promise<void>;
  stop(): Promise<void>;
}

async function stopAll(servers: Server[]) {
  for (const s of servers) {
    s.proc.kill('SIGTERM');
    await new Promise((r) => s.proc.once('exit', r));
  }
}

const saganCmd = ['node', '--import', 'tsx', 'apps/server/src/server.ts'];
const SAGAN_READY = /running at http:\/\/127\.0\.0\.1:(\d+)\//;

function saganEnv(dataDir: string, databaseUrl?: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'false',
    SIMULATE: 'false',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FACTOR: '100000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

async function saganTarget(name: string, nodes: 1 | 2, databaseUrl?: string): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-bench-'));
  const servers: Server[] = [];
  servers.push(await startProcess(saganCmd, saganEnv(dataDir, databaseUrl), SAGAN_READY));
  if (nodes === 2) {
    servers.push(await startProcess(saganCmd, saganEnv(`${dataDir}-b`, databaseUrl), SAGAN_READY));
  }
  const writer = `http://127.0.0.1:${servers[0]!.port}/apps/sagan/api`;
  const signIn = await fetch(`${writer}/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
    body: JSON.stringify({ displayName: 'Bench Scorekeeper' }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const headers = { 'content-type': 'application/json', 'x-sagan-request': '1', cookie };
  const created = await fetch(`${writer}/games`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ gameName: 'Bench Game', sportID: 2 }),
  });
  if (!created.ok) throw new Error(`create game: ${created.status} ${await created.text()}`);
  const { gameKey } = (await created.json()) as { gameKey: string };
  const viewerPort = servers[nodes - 1]!.port;
  return {
    name,
    servers,
    viewerPort,
    connect: (onScore) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${viewerPort}/apps/sagan/ws`);
        ws.on('open', () => {
          ws.send(JSON.stringify({ type: 'subscribe', topic: `game:${gameKey}` }));
          resolve(() => ws.terminate());
        });
        ws.on('message', (raw) => {
          const m = SCORE_RE.exec(raw.toString());
          if (m) onScore(Number(m[1]));
        });
        ws.on('error', reject);
      }),
    async publish(score) {
      const res = await fetch(`${writer}/games/${gameKey}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ homeScore: score }),
      });
      if (!res.ok) throw new Error(`publish: ${res.status}`);
    },
    async stop() {
      await stopAll(servers);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}-b`, { recursive: true, force: true });
    },
  };
}

/** A frame about as large as Sagan's game state, so the baselines move the same bytes. */
let samplePayload = '';
function baselineFrame(score: number): string {
  return samplePayload.replace(SCORE_RE, `"homeScore":${score}`);
}

async function baselineTarget(name: 'ws' | 'socketio'): Promise<Target> {
  const script =
    name === 'ws' ? 'bench/servers/ws-broadcast.ts' : 'bench/servers/socketio-broadcast.ts';
  const server = await startProcess(
    ['node', '--import', 'tsx', script],
    { PORT: '0' },
    /READY (\d+)/,
  );
  const url = `http://127.0.0.1:${server.port}`;
  return {
    name,
    servers: [server],
    viewerPort: server.port,
    connect: (onScore) =>
      new Promise((resolve, reject) => {
        if (name === 'ws') {
          const ws = new WebSocket(`ws://127.0.0.1:${server.port}`);
          ws.on('open', () => resolve(() => ws.terminate()));
          ws.on('message', (raw) => {
            const m = SCORE_RE.exec(raw.toString());
            if (m) onScore(Number(m[1]));
          });
          ws.on('error', reject);
        } else {
          const socket: Socket = ioClient(url, { transports: ['websocket'], reconnection: false });
          socket.on('connect', () => resolve(() => socket.disconnect()));
          socket.on('state', (frame: string) => {
            const m = SCORE_RE.exec(frame);
            if (m) onScore(Number(m[1]));
          });
          socket.on('connect_error', reject);
        }
      }),
    async publish(score) {
      const res = await fetch(`${url}/publish`, { method: 'POST', body: baselineFrame(score) });
      if (!res.ok) throw new Error(`publish: ${res.status}`);
    },
    stop: () => stopAll([server]),
  };
}

interface Result {
  target: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
  lost: number;
  kbPerViewer: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(target: Target, n: number): Promise<Result> {
  const rssBefore = target.servers.reduce((a, s) => a + rssKb(s.pid), 0);
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let received = 0;
  let measuring = false;
  const onScore = (score: number) => {
    const t = sentAt.get(score);
    if (t === undefined || !measuring) return;
    latencies.push(performance.now() - t);
    received++;
  };
  const closers: Array<() => void> = [];
  for (let i = 0; i < n; i += BATCH) {
    const batch = Math.min(BATCH, n - i);
    closers.push(
      ...(await Promise.all(Array.from({ length: batch }, () => target.connect(onScore)))),
    );
  }
  await sleep(1500); // let subscriptions settle before reading memory
  const viewerServer = target.servers.find((s) => s.port === target.viewerPort)!;
  const kbPerViewer = (rssKb(viewerServer.pid) - rssBefore / target.servers.length) / n;

  let score = 1_000_000 + Math.floor(Math.random() * 1000) * 1000;
  for (let i = 0; i < WARMUP; i++) {
    await target.publish(++score);
    await sleep(INTERVAL_MS);
  }
  measuring = true;
  for (let i = 0; i < ROUNDS; i++) {
    score++;
    sentAt.set(score, performance.now());
    await target.publish(score);
    await sleep(INTERVAL_MS);
  }
  await sleep(2000);
  measuring = false;
  closers.forEach((c) => c());
  await sleep(500);
  latencies.sort((a, b) => a - b);
  return {
    target: target.name,
    n,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    lost: n * ROUNDS - received,
    kbPerViewer,
  };
}

async function main() {
  // Re-run ourselves on core 1 so the server (core 0) and the load generator do not share.
  if (CPUS > 1 && !process.env.BENCH_PINNED && fs.existsSync('/usr/bin/taskset')) {
    const r = spawnSync(
      'taskset',
      ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
      {
        stdio: 'inherit',
        env: { ...process.env, BENCH_PINNED: '1' },
      },
    );
    process.exit(r.status ?? 1);
  }
  let pgUrl: string | undefined;
  if (TARGETS.some((t) => t.startsWith('sagan-2node') || t === 'sagan-pg')) {
    pgUrl = spawnSync('bash', ['scripts/pg.sh', 'start'], {
      cwd: root,
      encoding: 'utf8',
    }).stdout.trim();
    if (!pgUrl.startsWith('postgres')) throw new Error('could not start PostgreSQL');
  }
  const results: Result[] = [];
  try {
    for (const n of SIZES) {
      for (const name of TARGETS) {
        const target =
          name === 'sagan'
            ? await saganTarget('sagan', 1)
            : name === 'sagan-pg'
              ? await saganTarget('sagan-pg', 1, pgUrl)
              : name === 'sagan-2node'
                ? await saganTarget('sagan-2node', 2, pgUrl)
                : await baselineTarget(name as 'ws' | 'socketio');
        try {
          if (name.startsWith('sagan') && !samplePayload) {
            // Capture one real Sagan frame so the baselines broadcast the same size.
            samplePayload = await new Promise<string>((resolve) => {
              const ws = new WebSocket(`ws://127.0.0.1:${target.viewerPort}/apps/sagan/ws`);
              ws.on('message', (raw) => {
                const s = raw.toString();
                if (SCORE_RE.test(s)) {
                  ws.terminate();
                  resolve(s);
                }
              });
              void target.connect(() => undefined).then((close) => close());
              ws.on('open', () => ws.close());
            }).catch(() => '');
          }
          if (!samplePayload)
            samplePayload = JSON.stringify({ homeScore: 0, pad: 'x'.repeat(1500) });
          const r = await measure(target, n);
          results.push(r);
          console.error(
            `  ${r.target} N=${r.n}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, lost ${r.lost}`,
          );
        } finally {
          await target.stop();
        }
      }
    }
  } finally {
    if (pgUrl) spawnSync('bash', ['scripts/pg.sh', 'stop'], { cwd: root });
  }
  printTable(results);
}

function printTable(results: Result[]) {
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
  console.log(
    `\nFan-out, ${os.cpus()[0]?.model ?? 'cpu'} × ${CPUS}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${ROUNDS} publishes`,
  );
  console.log('| target | viewers | p50 ms | p99 ms | max ms | lost | KB/viewer |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.target} | ${r.n} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.max)} | ${r.lost} | ${f(r.kbPerViewer)} |`,
    );
  }
  console.log(
    '\n| viewers | p99 sagan/ws | p99 sagan/socket.io | cross-node p99 − single-node p99 (ms) |',
  );
  console.log('|---:|---:|---:|---:|');
  for (const n of SIZES) {
    const get = (t: string) => results.find((r) => r.target === t && r.n === n);
    const s = get('sagan');
    const ws = get('ws');
    const sio = get('socketio');
    const two = get('sagan-2node');
    const one = get('sagan-pg') ?? s;
    console.log(
      `| ${n} | ${s && ws ? (s.p99 / ws.p99).toFixed(2) : '—'} | ${s && sio ? (s.p99 / sio.p99).toFixed(2) : '—'} | ${two && one ? f(two.p99 - one.p99) : '—'} |`,
    );
  }
  const lost = results.reduce((a, r) => a + r.lost, 0);
  if (lost > 0) console.log(`\nLOST MESSAGES: ${lost}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
