// bench/write-cpu: the server's CPU time per score write, this checkout beside a baseline build.
// CPU time (the process's own user + system time, all its threads, read from /proc) moves less
// with the machine's load than latency and writes/s do, but a shared host's speed drifts by half
// over minutes: so every build's server is started and warmed up first (G games each with V
// viewers on its game: topic, then a warm-up), and the builds are then measured in turns, N
// writes each (half as a phone app with a Google ID token, half as the web outbox with a session
// and an Idempotency-Key, C in flight at once on different games), R rounds. Printed: CPU ms per
// write (whole process, the main thread, and the rest: PGlite's worker, GC and libuv threads; on
// PostgreSQL also its own processes' CPU); writes/s and write latency, which the machine's load
// does move, as a loose check. On PGlite a floor takes its turns beside the builds: the write's
// own SQL in a loop, no server (floorTarget), and each build's CPU per write is printed as a
// ratio of the floor's, of the medians and round by round.
//
//   npm run bench:write-cpu -- --baseline 6e417a9
//   npm run bench:write-cpu -- --no-floor      # without the floor (PGlite runs it by default)
//   npm run bench:write-cpu -- --baseline main --writes 2000 --rounds 4 --target sagan-pg
//   BENCH_CPU_PROF=.tmp/prof npm run bench:write-cpu -- --rounds 1   # V8 profiles of each server
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { option, options } from '../scripts/lib/cli-args.ts';
import { freshDatabase } from '../scripts/lib/postgres.ts';
import { apiCaller, scorekeeperWithGame } from './lib/api.ts';
import { baselineCheckout, type Build } from './lib/baseline.ts';
import {
  loopSample,
  machine,
  percentile,
  pinnedToServerCores,
  pinSelf,
  root,
  SERVER_CORES,
  startGoogleStandIn,
  startPostgres,
  startSagan,
  stopServers,
  type GoogleStandIn,
} from './lib/procs.ts';

const GAMES = Number(option('games') ?? 50);
const VIEWERS = Number(option('viewers') ?? 4);
const WRITES = Number(option('writes') ?? 1000);
/**
 * Writes before the measure: enough for V8 to have optimised what a write runs. After 500, the
 * server's helper threads still spent ~0.5 ms a write compiling (0.71 ms against 0.14 after
 * 6,000), which a server running all day pays once; the floor's smaller code settles sooner.
 */
const WARMUP = Number(option('warmup') ?? 6000);
const CONCURRENCY = Number(option('concurrency') ?? 8);
const ROUNDS = Number(option('rounds') ?? 8);
const TARGET = option('target') ?? 'sagan';
const BASELINE = option('baseline');
if (!['sagan', 'sagan-pg'].includes(TARGET)) throw new Error(`--target sagan|sagan-pg`);
/**
 * The floor beside the builds (PGlite only): a score write's own statements, the server's very
 * SQL texts, run in a loop on PGlite started as the server starts it, on the games a server made,
 * in this process with no server. `--no-floor` leaves it out.
 */
const FLOOR = TARGET === 'sagan' && !process.argv.includes('--no-floor');
const FLOOR_NAME = "floor: the write's own SQL in a loop, no server";
/** Where this process (the load generator) runs while a server is measured: off its core. */
const LOAD_CORES = os.cpus().length > 1 && SERVER_CORES === '0' ? '1' : `0-${os.cpus().length - 1}`;

// Each server's collections are read through loop-delay.mjs.
process.env.BENCH_LOOP_DELAY ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-loop-delay-'));

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const call = apiCaller(agent);

/** CPU ticks (user + system) of each thread of a process, by thread id. */
function threadTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state is 3rd, utime 14th, stime 15th.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), Number(rest[11]) + Number(rest[12]));
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
}

/**
 * CPU ticks (user + system) of every PostgreSQL process on the machine: the cluster's backends,
 * checkpointer, WAL writer… A write's cost on PostgreSQL is mostly there, outside the server.
 * Only the bench's own cluster runs here (PostgreSQL is not a service on these machines).
 */
function postgresTicks(): number {
  let sum = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres')) {
        continue;
      }
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += Number(rest[11]) + Number(rest[12]);
    } catch {
      // a process that ended meanwhile
    }
  }
  return sum;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const HZ = 100;

/** CPU ms per measured write between two threadTicks readings: all threads, the main one, the rest. */
function cpuPerWrite(
  before: Map<number, number>,
  after: Map<number, number>,
  pid: number,
  writes: number,
) {
  let total = 0;
  let main = 0;
  for (const [tid, ticks] of after) {
    const d = ticks - (before.get(tid) ?? 0);
    total += d;
    if (tid === pid) main += d;
  }
  const perWrite = (ticks: number) => ((ticks / HZ) * 1000) / writes;
  return { total: perWrite(total), main: perWrite(main), other: perWrite(total - main) };
}

interface Game {
  key: string;
  headers: Record<string, string>;
  web: boolean;
  score: number;
  seq: number;
}

interface Result {
  build: string;
  total: number;
  main: number;
  other: number;
  wallMs: number;
  failed: number;
  p50: number;
  p99: number;
  /**
   * KB the JavaScript heap grew by between collections, and GC ms, per write (loop-delay.mjs):
   * a server's only; the floor runs in this process, whose heap is the bench's.
   */
  heap?: { allocatedKb: number; gcMsPerWrite: number };
  /** PostgreSQL's own CPU ms per write (sagan-pg only). */
  database?: number;
}

/** GAMES games, each with its scorekeeper: every second one signed in as the web outbox is. */
async function makeGames(port: number, google: GoogleStandIn): Promise<Game[]> {
  const games: Game[] = [];
  for (let i = 0; i < GAMES; i++) {
    const web = i % 2 === 1;
    const made = await scorekeeperWithGame(call, port, google, i, web, `Write ${i}`);
    games.push({ key: made.gameKey, headers: made.headers, web, score: 0, seq: 0 });
  }
  return games;
}

/** A build to run, with environment of its own (--variant KEY=VALUE: this checkout with it). */
type Run = Build & { env?: Record<string, string> };

/**
 * What a run measures, ready: a build's server (its games, their scorekeepers and viewers) or
 * the floor. The targets stay up through the whole run, and the measured slices take turns.
 */
interface Target {
  name: string;
  /** n writes, measured: their CPU, wall time and latencies. */
  slice(n: number): Promise<Result>;
  close(): Promise<void>;
}

async function serverTarget(build: Run, google: GoogleStandIn, pgUrl?: string): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-wcpu-'));
  const db = pgUrl ? await freshDatabase(pgUrl, 'writecpu') : null;
  const server = await startSagan({
    dataDir,
    google,
    cwd: build.cwd,
    databaseUrl: db?.url,
    env: { ALLOW_LOCAL_SIGNIN: 'true', ...build.env },
  });
  const sockets: WebSocket[] = [];
  const close = async () => {
    for (const ws of sockets) ws.terminate();
    await stopServers([server]);
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const games: Game[] = await makeGames(server.port, google);
    for (const g of games) {
      for (let v = 0; v < VIEWERS; v++) {
        sockets.push(
          await new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(`ws://127.0.0.1:${server.port}/apps/sagan/ws`, {
              perMessageDeflate: false,
            });
            ws.on('open', () => {
              ws.send(JSON.stringify({ type: 'subscribe', topic: `game:${g.key}` }));
              resolve(ws);
            });
            ws.on('error', reject);
          }),
        );
      }
    }
    let failed = 0;
    let latencies: number[] = [];
    const write = async (g: Game) => {
      const score = ++g.score;
      const sent = performance.now();
      const r = g.web
        ? await call(
            server.port,
            'PATCH',
            `/games/${g.key}`,
            { ...g.headers, 'idempotency-key': `w${g.key}-${score}` },
            { homeScore: score, baseSeq: g.seq },
          )
        : await call(server.port, 'PATCH', `/games/${g.key}`, g.headers, { homeScore: score });
      latencies.push(performance.now() - sent);
      if (r.status !== 200) failed++;
      else if (g.web) g.seq = (JSON.parse(r.body) as { seq: number }).seq;
    };
    /** n writes, C in flight, each lane on its own games so one game's taps stay in order. */
    const burst = async (n: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, lane) => {
          for (;;) {
            const i = next++;
            if (i >= n) return;
            const laneGames = games.filter((_, k) => k % CONCURRENCY === lane);
            await write(laneGames[i % laneGames.length]!);
          }
        }),
      );
    };
    await burst(WARMUP);
    return {
      name: build.name,
      close,
      async slice(n) {
        failed = 0;
        latencies = [];
        await loopSample(server.pid);
        const before = threadTicks(server.pid);
        const dbBefore = db ? postgresTicks() : 0;
        const t0 = performance.now();
        await burst(n);
        const wallMs = performance.now() - t0;
        const after = threadTicks(server.pid);
        const dbTicks = db ? postgresTicks() - dbBefore : 0;
        const heap = await loopSample(server.pid);
        latencies.sort((a, b) => a - b);
        return {
          build: build.name,
          ...cpuPerWrite(before, after, server.pid, n),
          wallMs,
          failed,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          heap: { allocatedKb: heap.allocatedKb / n, gcMsPerWrite: heap.gcMs / n },
          ...(db ? { database: ((dbTicks / HZ) * 1000) / n } : {}),
        };
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The floor: the same games made through a server of this checkout, which then stops; then
 * score writes as the route's transaction makes them, in a process of its own on the servers'
 * core (lib/write-floor.ts).
 */
async function floorTarget(google: GoogleStandIn): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-wcpu-floor-'));
  const server = await startSagan({ dataDir, google, env: { ALLOW_LOCAL_SIGNIN: 'true' } });
  let keys: string[];
  try {
    keys = (await makeGames(server.port, google)).map((g) => g.key);
  } finally {
    await stopServers([server]);
  }
  const [cmd, ...args] = pinnedToServerCores([
    process.execPath,
    '--import',
    'tsx',
    path.join(root, 'bench/lib/write-floor.ts'),
    path.join(dataDir, 'pglite'),
    JSON.stringify(keys),
  ]);
  const child = spawn(cmd!, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const answer = () =>
    new Promise<unknown>((resolve, reject) => {
      const exit = (code: number | null) => reject(new Error(`the write floor exited (${code})`));
      child.once('exit', exit);
      child.once('message', (reply) => {
        child.off('exit', exit);
        resolve(reply);
      });
    });
  const close = async () => {
    if (child.connected) child.disconnect();
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await answer();
    const run = async (n: number) => {
      const reply = answer();
      child.send(n);
      return (await reply) as number[];
    };
    await run(WARMUP);
    return {
      name: FLOOR_NAME,
      close,
      async slice(n) {
        const before = threadTicks(child.pid!);
        const t0 = performance.now();
        const latencies = await run(n);
        const wallMs = performance.now() - t0;
        const after = threadTicks(child.pid!);
        latencies.sort((a, b) => a - b);
        return {
          build: FLOOR_NAME,
          ...cpuPerWrite(before, after, child.pid!, n),
          wallMs,
          failed: 0,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
        };
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

async function main() {
  const builds: Run[] = [{ name: 'this', cwd: root }];
  // --variant KEY=VALUE, repeatable: this checkout again with that environment, once each.
  for (const variant of options('variant')) {
    const k = variant.slice(0, variant.indexOf('='));
    const v = variant.slice(variant.indexOf('=') + 1);
    builds.push({ name: `this, ${variant}`, cwd: root, env: { [k]: v } });
  }
  // --baseline a,b: each ref's server beside this one.
  const checkouts = (BASELINE ? BASELINE.split(',') : []).map(baselineCheckout);
  for (const c of checkouts) builds.push(c.build);
  if (FLOOR) builds.push({ name: FLOOR_NAME, cwd: root });
  const google = await startGoogleStandIn();
  const pg = TARGET === 'sagan-pg' ? await startPostgres() : null;
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `write-cpu on ${machine()}; ${TARGET}, ${GAMES} games × ${VIEWERS} viewers, ${WARMUP} warm-up + ${WRITES} measured writes, ${CONCURRENCY} in flight; load ${load()} at start`,
  );
  const results: Result[] = [];
  const targets: Target[] = [];
  pinSelf(LOAD_CORES);
  try {
    // Every build warmed up first, then measured in turns: a machine whose speed drifts over
    // minutes (a shared host) meets each build in every stretch of the run.
    for (const build of builds) {
      targets.push(
        build.name === FLOOR_NAME
          ? await floorTarget(google)
          : await serverTarget(build, google, pg?.url),
      );
    }
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which build goes first, so a trend in the machine's load favours neither.
      const order = r % 2 === 0 ? targets : targets.toReversed();
      for (const target of order) {
        const res = await target.slice(WRITES);
        results.push(res);
        console.log(
          `  ${res.build}: ${res.total.toFixed(2)} CPU ms/write (main ${res.main.toFixed(2)}, other threads ${res.other.toFixed(2)})${res.database === undefined ? '' : `, PostgreSQL ${res.database.toFixed(2)} CPU ms/write`}${res.heap ? `, ${res.heap.allocatedKb.toFixed(1)} KB allocated and ${res.heap.gcMsPerWrite.toFixed(3)} ms of GC per write` : ''}, ${((WRITES / res.wallMs) * 1000).toFixed(0)} writes/s wall, write p50/p99 ${res.p50.toFixed(1)}/${res.p99.toFixed(1)} ms, failed ${res.failed}, load ${load()}`,
        );
      }
    }
  } finally {
    for (const t of targets) await t.close();
    google.close();
    await pg?.stop();
    for (const c of checkouts) c.remove();
  }
  console.log(
    `\n| build | CPU ms/write, median | main thread | other threads | KB allocated/write, median | runs |${pg ? ' PostgreSQL CPU ms/write, median |' : ''}`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|${pg ? '---:|' : ''}`);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const medianCpu = (name: string) =>
    median(results.filter((r) => r.build === name).map((r) => r.total));
  for (const build of builds) {
    const mine = results.filter((r) => r.build === build.name);
    const allocated = mine.flatMap((r) => (r.heap ? [r.heap.allocatedKb] : []));
    console.log(
      `| ${build.name} | ${median(mine.map((r) => r.total)).toFixed(2)} | ${median(mine.map((r) => r.main)).toFixed(2)} | ${median(mine.map((r) => r.other)).toFixed(2)} | ${allocated.length ? median(allocated).toFixed(1) : '—'} | ${mine.map((r) => r.total.toFixed(2)).join(', ')} |${pg ? ` ${median(mine.map((r) => r.database ?? 0)).toFixed(2)} |` : ''}`,
    );
  }
  if (FLOOR) {
    const floor = medianCpu(FLOOR_NAME);
    const floorRuns = results.filter((r) => r.build === FLOOR_NAME);
    for (const build of builds.filter((b) => b.name !== FLOOR_NAME)) {
      // Each round's own ratio: the build's slice over the floor's slice of the same round.
      const paired = results
        .filter((r) => r.build === build.name)
        .map((r, i) => r.total / floorRuns[i]!.total);
      console.log(
        `${build.name}: CPU per write ÷ floor's = ${(medianCpu(build.name) / floor).toFixed(2)}× (medians); each round's own: median ${median([...paired]).toFixed(2)}×, ${paired.map((x) => x.toFixed(2)).join(', ')}`,
      );
    }
  }
  if (results.some((r) => r.failed > 0)) process.exitCode = 1;
}

await main();
