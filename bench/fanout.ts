// bench/fanout: publish-to-receipt latency, loss and memory per viewer for Sagan's real path
// (scorekeeping API write → database → NOTIFY → hub → every socket) against a bare `ws`
// broadcast server and socket.io, in the same run on the same machine. Prints one table and
// the ratios. Method notes are in docs/performance.md.
//
//   npm run bench:fanout                  # N = 1000, 5000, 10000
//   npm run bench:fanout -- --smoke       # N = 200, a quick run (part of the test command)
//   npm run bench:fanout -- --n 2000 --targets sagan,ws --rounds 20
//   npm run bench:fanout -- --baseline main   # adds sagan-baseline: main's server, same run
//
// Exit status 1 when any message is lost, so the smoke run fails loudly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { baselineCheckout, type Build } from './lib/baseline.ts';
import { scoreOf } from './lib/frames.ts';
import {
  bearerClient,
  machine,
  measuredNodeFlags,
  percentile,
  reexecPinned,
  settledRssKb,
  sleep,
  startGoogleStandIn,
  startPostgres,
  startSagan,
  startServer,
  stopServers,
  type Server,
} from './lib/procs.ts';
import { API_PATH, WS_PATH } from '@sagan/shared/http';
import { flag, option } from '../scripts/lib/cli-args.ts';

const SMOKE = flag('smoke');
const SIZES = (option('n') ?? (SMOKE ? '200' : '1000,5000,10000')).split(',').map(Number);
const BASELINE = option('baseline');
const ALL_TARGETS = ['sagan', 'sagan-pg', 'sagan-2node', 'ws', 'socketio', 'sagan-baseline'];
// The smoke run skips sagan-pg: sagan-2node already goes through PostgreSQL.
const TARGETS = (
  option('targets') ??
  (SMOKE ? 'sagan,sagan-2node,ws,socketio' : ALL_TARGETS.slice(0, -1).join(','))
)
  .split(',')
  .concat(BASELINE ? ['sagan-baseline'] : []);
const WARMUP = Number(option('warmup') ?? (SMOKE ? 2 : 10));
const ROUNDS = Number(option('rounds') ?? (SMOKE ? 10 : 100));
/** Pause between one publish fully delivered and the next, so publishes never overlap. */
const GAP_MS = 20;
/** A viewer that has not got a message this long after its publish counts it as lost. */
const DELIVERY_TIMEOUT_MS = 10_000;
const BATCH = 250;

for (const t of TARGETS) if (!ALL_TARGETS.includes(t)) throw new Error(`unknown target ${t}`);

/** One target under test: how to start it, connect a viewer, and publish a score. */
interface Target {
  name: string;
  servers: Server[];
  /** The process the viewers are connected to (its RSS is the memory per viewer). */
  viewerServer: Server;
  connect(onScore: (score: number) => void): Promise<() => void>;
  publish(score: number): Promise<void>;
  stop(): Promise<void>;
  /** Sagan only: the game's key, and its watcher count as each node sees it. */
  gameKey?: string;
  watchers?(): Promise<unknown[]>;
}

/** Every target's viewers are plain `ws` clients, so client-side cost is identical. */
function rawViewer(
  url: string,
  onOpen: (ws: WebSocket) => void,
  onFrame: (data: Buffer, ws: WebSocket) => void,
): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('open', () => {
      onOpen(ws);
      resolve(() => ws.terminate());
    });
    ws.on('message', (data: Buffer) => onFrame(data, ws));
    ws.on('error', reject);
  });
}

async function saganTarget(
  name: string,
  nodes: 1 | 2,
  databaseUrl?: string,
  build?: Build,
): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-bench-'));
  const servers: Server[] = [];
  // Scores come from the phone apps, which call the scorekeeping API with a Google ID token.
  const google = await startGoogleStandIn();
  try {
    servers.push(await startSagan({ dataDir, databaseUrl, google, cwd: build?.cwd }));
    if (nodes === 2) {
      servers.push(
        await startSagan({ dataDir: `${dataDir}-b`, databaseUrl, google, cwd: build?.cwd }),
      );
    }
  } catch (err) {
    google.close();
    await stopServers(servers);
    throw err;
  }
  const writer = servers[0]!;
  const viewerServer = servers[nodes - 1]!;
  const scorekeeper = bearerClient(
    `http://127.0.0.1:${writer.port}`,
    await google.idToken('bench-scorekeeper', 'Bench Scorekeeper'),
  );
  const { gameKey } = await scorekeeper.call<{ gameKey: string }>('POST', '/games', {
    gameName: 'Bench Game',
    sportID: 2,
  });
  const subscribe = JSON.stringify({ type: 'subscribe', topic: `game:${gameKey}` });
  return {
    name,
    servers,
    viewerServer,
    gameKey,
    connect: (onScore) =>
      rawViewer(
        `ws://127.0.0.1:${viewerServer.port}${WS_PATH}`,
        (ws) => ws.send(subscribe),
        (data) => onScore(scoreOf(data)),
      ),
    async publish(score) {
      await scorekeeper.call('PATCH', `/games/${gameKey}`, { homeScore: score });
    },
    // Where the viewers are as each node counts them: on node B only, in the two-node run.
    watchers: () =>
      Promise.all(
        servers.map(async (s) => {
          const r = await fetch(`http://127.0.0.1:${s.port}${API_PATH}/games/${gameKey}/watchers`);
          return r.json();
        }),
      ),
    async stop() {
      google.close();
      await stopServers(servers);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}-b`, { recursive: true, force: true });
    },
  };
}

/** One real frame of Sagan's game topic; the baselines broadcast frames of the same size. */
let sampleFrame = '';
function baselineFrame(score: number): string {
  return sampleFrame.replace(/"homeScore":\d+/, `"homeScore":${score}`);
}

/** Subscribes one viewer, publishes a score, and keeps the frame that carried it. */
async function captureFrame(t: Target): Promise<string> {
  let resolveFrame: (s: string) => void = () => undefined;
  const got = new Promise<string>((r) => (resolveFrame = r));
  const close = await rawViewer(
    `ws://127.0.0.1:${t.viewerServer.port}${WS_PATH}`,
    (ws) => ws.send(JSON.stringify({ type: 'subscribe', topic: `game:${t.gameKey}` })),
    (data) => {
      if (scoreOf(data) === 100_000) resolveFrame(data.toString());
    },
  );
  try {
    await t.publish(100_000);
    return await Promise.race([
      got,
      sleep(10_000).then(() => Promise.reject(new Error('no frame from Sagan'))),
    ]);
  } finally {
    close();
  }
}

async function baselineTarget(name: 'ws' | 'socketio'): Promise<Target> {
  const script =
    name === 'ws' ? 'bench/servers/ws-broadcast.ts' : 'bench/servers/socketio-broadcast.ts';
  const server = await startServer(
    ['node', ...measuredNodeFlags(), script],
    { PORT: '0' },
    /READY (\d+)/,
  );
  const url = `http://127.0.0.1:${server.port}`;
  return {
    name,
    servers: [server],
    viewerServer: server,
    connect: (onScore) =>
      name === 'ws'
        ? rawViewer(
            `ws://127.0.0.1:${server.port}`,
            () => undefined,
            (data) => onScore(scoreOf(data)),
          )
        : // socket.io's wire protocol spoken directly: 0 = open, 40 = join the namespace,
          // 2/3 = ping/pong, 42[...] = an event.
          new Promise((resolve, reject) => {
            rawViewer(
              `ws://127.0.0.1:${server.port}/socket.io/?EIO=4&transport=websocket`,
              () => undefined,
              (data, ws) => {
                const kind = data[0];
                if (kind === 0x34 /* 4 */) {
                  if (data[1] === 0x30 /* 40: joined */) resolve(close);
                  else if (data[1] === 0x32 /* 42: event */) onScore(scoreOf(data));
                } else if (kind === 0x30 /* 0: open */) ws.send('40');
                else if (kind === 0x32 /* 2: ping */) ws.send('3');
              },
            ).then((c) => (close = c), reject);
            let close: () => void = () => undefined;
          }),
    async publish(score) {
      const res = await fetch(`${url}/publish`, { method: 'POST', body: baselineFrame(score) });
      if (!res.ok) throw new Error(`publish: ${res.status}`);
    },
    stop: () => stopServers([server]),
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

async function measure(target: Target, n: number): Promise<Result> {
  // Per publish: when it was sent, how many viewers have it, and who waits for the last one.
  let current = -1;
  let sentAt = 0;
  let got = 0;
  let allIn: (() => void) | null = null;
  let recording = false;
  const latencies: number[] = [];
  let received = 0;
  const onScore = (score: number) => {
    if (score !== current) return; // a subscribe's initial state, or a straggler
    if (recording) {
      latencies.push(performance.now() - sentAt);
      received++;
    }
    if (++got === n) allIn?.();
  };
  const rssBefore = await settledRssKb(target.viewerServer.pid);
  const closers: Array<() => void> = [];
  try {
    for (let i = 0; i < n; i += BATCH) {
      const batch = Math.min(BATCH, n - i);
      closers.push(
        ...(await Promise.all(Array.from({ length: batch }, () => target.connect(onScore)))),
      );
    }
    await sleep(2000); // subscriptions settle and initial states drain before reading memory
    // Both readings after a full GC; at small N the difference is within RSS noise (±2 MB).
    const kbPerViewer = ((await settledRssKb(target.viewerServer.pid)) - rssBefore) / n;
    if (target.watchers) {
      const counts = await target.watchers();
      console.error(`  ${target.name}: watchers per node ${JSON.stringify(counts)}`);
    }

    let score = 100_000; // 6 digits throughout, so every frame has the same size
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      recording = i >= WARMUP; // warm-up publishes are delivered but not recorded
      current = ++score;
      got = 0;
      const delivered = new Promise<void>((r) => (allIn = r));
      sentAt = performance.now();
      await target.publish(score);
      await Promise.race([delivered, sleep(DELIVERY_TIMEOUT_MS)]);
      allIn = null;
      await sleep(GAP_MS);
    }
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
  } finally {
    closers.forEach((c) => c());
    await sleep(500);
  }
}

async function makeTarget(
  name: string,
  pgUrl: string | undefined,
  baseline: Build | undefined,
): Promise<Target> {
  switch (name) {
    case 'sagan-baseline':
      return saganTarget(`sagan ${baseline!.name}`, 1, undefined, baseline);
    case 'sagan':
      return saganTarget('sagan', 1);
    case 'sagan-pg':
      return saganTarget('sagan-pg', 1, pgUrl);
    case 'sagan-2node':
      return saganTarget('sagan-2node', 2, pgUrl);
    default:
      return baselineTarget(name as 'ws' | 'socketio');
  }
}

const loadAtStart = os.loadavg()[0]!;

async function main() {
  reexecPinned();
  const needsPg = TARGETS.some((t) => t === 'sagan-2node' || t === 'sagan-pg');
  const pg = needsPg ? await startPostgres() : null;
  const baseline = BASELINE ? baselineCheckout(BASELINE) : null;
  const results: Result[] = [];
  const failures: string[] = [];
  try {
    for (const [i, n] of SIZES.entries()) {
      // Sagan first: the baselines then send frames the size of the one Sagan sent. The Sagan
      // targets swap order from one N to the next: the first row after a large N's teardown
      // runs on a machine still closing its sockets, which is not to count against one build.
      const sagans = TARGETS.filter((t) => t.startsWith('sagan'));
      const others = TARGETS.filter((t) => !t.startsWith('sagan'));
      for (const name of [...(i % 2 ? sagans.reverse() : sagans), ...others]) {
        if (!sampleFrame && !name.startsWith('sagan')) {
          const t = await saganTarget('capture', 1);
          sampleFrame = await captureFrame(t).finally(() => t.stop());
        }
        let target: Target;
        try {
          target = await makeTarget(name, pg?.url, baseline?.build);
        } catch (err) {
          // Reported and counted, but the other rows still run and print.
          console.error(`  ${name} N=${n}: could not start: ${String(err).slice(0, 2000)}`);
          failures.push(`${name} N=${n}`);
          continue;
        }
        try {
          if (!sampleFrame && target.gameKey) {
            sampleFrame = await captureFrame(target);
            console.error(`  frame: ${Buffer.byteLength(baselineFrame(100_001))} bytes`);
          }
          const r = await measure(target, n);
          results.push(r);
          console.error(
            `  ${r.target} N=${r.n}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, lost ${r.lost}, ${r.kbPerViewer.toFixed(1)} KB/viewer`,
          );
        } catch (err) {
          console.error(`  ${name} N=${n}: failed: ${String(err)}`);
          failures.push(`${name} N=${n}`);
        } finally {
          await target.stop();
        }
      }
    }
  } finally {
    pg?.stop();
    baseline?.remove();
  }
  printTable(results);
  if (failures.length) console.log(`\nFAILED: ${failures.join(', ')}`);
  if (failures.length || results.some((r) => r.lost > 0)) process.exit(1);
}

function printTable(results: Result[]) {
  const f = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(1) : '—');
  const ratio = (a?: Result, b?: Result) => (a && b ? (a.p99 / b.p99).toFixed(2) : '—');
  console.log(
    `\nFan-out on ${machine()}; server side on core 0, load generator on core 1;` +
      ` ${Buffer.byteLength(baselineFrame(100_001))}-byte frame; ${WARMUP} warm-up + ${ROUNDS} measured publishes per row;` +
      ` 1-min load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end`,
  );
  console.log('\n| target | viewers | p50 ms | p99 ms | max ms | lost | KB RSS/viewer |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.target} | ${r.n} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.max)} | ${r.lost} | ${f(r.kbPerViewer)} |`,
    );
  }
  console.log(
    '\n| viewers | p99 sagan/ws | p99 sagan/socket.io | p99 sagan-pg/ws | cross-node p99 − single-node p99 (ms) |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  for (const n of SIZES) {
    const get = (t: string) => results.find((r) => r.target === t && r.n === n);
    const two = get('sagan-2node');
    const one = get('sagan-pg');
    console.log(
      `| ${n} | ${ratio(get('sagan'), get('ws'))} | ${ratio(get('sagan'), get('socketio'))} | ${ratio(one, get('ws'))} | ${two && one ? f(two.p99 - one.p99) : '—'} |`,
    );
  }
  const before = (n: number) =>
    results.find((r) => r.target.startsWith('sagan baseline') && r.n === n);
  if (SIZES.some(before)) {
    console.log('\n| viewers | p99 sagan/ws | p99 baseline/ws | p99 sagan/baseline |');
    console.log('|---:|---:|---:|---:|');
    for (const n of SIZES) {
      const get = (t: string) => results.find((r) => r.target === t && r.n === n);
      console.log(
        `| ${n} | ${ratio(get('sagan'), get('ws'))} | ${ratio(before(n), get('ws'))} | ${ratio(get('sagan'), before(n))} |`,
      );
    }
  }
  const lost = results.reduce((a, r) => a + r.lost, 0);
  if (lost > 0) console.log(`\nLOST MESSAGES: ${lost}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
