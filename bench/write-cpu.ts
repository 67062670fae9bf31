// bench/write-cpu: the server's CPU time per score write, this checkout beside a baseline build,
// alternating. CPU time (the process's own user + system time, all its threads, read from
// /proc) hardly moves with the machine's load, where latency and writes/s do: on a box other
// work shares, this is the figure that compares two builds. Per build and round: a fresh server,
// G games each with V viewers on its game: topic, a warm-up, then N writes (half as a phone app
// with a Google ID token, half as the web outbox with a session and an Idempotency-Key), C in
// flight at once on different games. Printed: CPU ms per write (whole process, the main thread,
// and the rest: PGlite's worker, GC and libuv threads; on PostgreSQL also its own processes'
// CPU); writes/s and write latency, which the machine's load does move, as a loose check. On
// PGlite a floor takes its turn beside the builds: the write's own SQL in a loop, no server
// (floorRound), and each build's CPU per write is printed as a ratio of the floor's.
//
//   npm run bench:write-cpu -- --baseline 6e417a9
//   npm run bench:write-cpu -- --no-floor      # without the floor (PGlite runs it by default)
//   npm run bench:write-cpu -- --baseline main --writes 2000 --rounds 3 --target sagan-pg
//   BENCH_CPU_PROF=.tmp/prof npm run bench:write-cpu -- --rounds 1   # V8 profiles of each server
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { option } from '../scripts/lib/cli-args.ts';
import { freshDatabase } from '../scripts/lib/postgres.ts';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameHistoryTopic } from '@sagan/shared/topics/game-history';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { pgliteStatements } from '../apps/server/src/db/pglite-prepared.ts';
import { startPglite } from '../apps/server/src/db/pglite-start.ts';
import { APPEND_GAME_EVENT_SQL, LOCK_GAME_SQL } from '../apps/server/src/lib/game-write.ts';
import { bumpTopicsStatement } from '../apps/server/src/realtime/hub.ts';
import { apiCaller, scorekeeperWithGame } from './lib/api.ts';
import { baselineCheckout, type Build } from './lib/baseline.ts';
import {
  loopSample,
  machine,
  percentile,
  root,
  startGoogleStandIn,
  startPostgres,
  startSagan,
  stopServers,
  type GoogleStandIn,
} from './lib/procs.ts';

const GAMES = Number(option('games') ?? 50);
const VIEWERS = Number(option('viewers') ?? 4);
const WRITES = Number(option('writes') ?? 1500);
/**
 * Writes before the measure: enough for V8 to have optimised what a write runs. After 500, the
 * server's helper threads still spent ~0.5 ms a write compiling (0.71 ms against 0.14 after
 * 6,000), which a server running all day pays once; the floor's smaller code settles sooner.
 */
const WARMUP = Number(option('warmup') ?? 6000);
const CONCURRENCY = Number(option('concurrency') ?? 8);
const ROUNDS = Number(option('rounds') ?? 3);
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
function cpuPerWrite(before: Map<number, number>, after: Map<number, number>, pid: number) {
  let total = 0;
  let main = 0;
  for (const [tid, ticks] of after) {
    const d = ticks - (before.get(tid) ?? 0);
    total += d;
    if (tid === pid) main += d;
  }
  const perWrite = (ticks: number) => ((ticks / HZ) * 1000) / WRITES;
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

async function round(build: Run, google: GoogleStandIn, pgUrl?: string): Promise<Result> {
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
    failed = 0;
    latencies = [];
    await loopSample(server.pid);
    const before = threadTicks(server.pid);
    const dbBefore = db ? postgresTicks() : 0;
    const t0 = performance.now();
    await burst(WRITES);
    const wallMs = performance.now() - t0;
    const after = threadTicks(server.pid);
    const dbTicks = db ? postgresTicks() - dbBefore : 0;
    const heap = await loopSample(server.pid);
    latencies.sort((a, b) => a - b);
    return {
      build: build.name,
      ...cpuPerWrite(before, after, server.pid),
      wallMs,
      failed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      heap: { allocatedKb: heap.allocatedKb / WRITES, gcMsPerWrite: heap.gcMs / WRITES },
      ...(db ? { database: ((dbTicks / HZ) * 1000) / WRITES } : {}),
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await stopServers([server]);
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The floor's round: the same games made through a server of this checkout, which then stops;
 * then WARMUP + WRITES score writes as the route's transaction makes them (the row locked with
 * the event id looked up, the topics bumped with the scoreboard's merge, the event appended with
 * the new snapshot), one at a time: PGlite runs one transaction at a time anyway.
 */
async function floorRound(google: GoogleStandIn): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-wcpu-floor-'));
  const server = await startSagan({ dataDir, google, env: { ALLOW_LOCAL_SIGNIN: 'true' } });
  let keys: string[];
  try {
    keys = (await makeGames(server.port, google)).map((g) => g.key);
  } finally {
    await stopServers([server]);
  }
  const pglite = startPglite({ dataDir: path.join(dataDir, 'pglite'), sharedBuffers: '16MB' });
  try {
    await pglite.waitReady;
    const statements = pgliteStatements(pglite);
    let n = 0;
    const write = async (gameKey: string) => {
      const eventId = `floor-${++n}`;
      await pglite.transaction(async (t) => {
        const [row] = await statements.txQuery<{
          uid: string;
          fields: Record<string, unknown>;
          time_stamp: number | string;
        }>(t, LOCK_GAME_SQL, [gameKey, eventId]);
        if (!row) throw new Error(`no game ${gameKey}`);
        const from = Number(row.fields.homeScore ?? 0);
        const fields: Record<string, unknown> = { ...row.fields, homeScore: from + 1 };
        const timeStamp = Math.max(Date.now(), Number(row.time_stamp) + 1);
        const topic = gameTopic.name(gameKey);
        // The topics the route names, less those the hub coalesces (bumped after commit).
        const topics = [
          [gameTopic, topic],
          [recentGamesTopic, recentGamesTopic.name()],
          [myGamesTopic, myGamesTopic.name(row.uid)],
          [gameHistoryTopic, gameHistoryTopic.name(gameKey)],
          [gameDetailTopic, gameDetailTopic.name(gameKey)],
        ] as const;
        const bumped = topics.flatMap(([def, name]) => (def.coalesce ? [] : [name])).sort();
        const bump = bumpTopicsStatement('pglite', bumped, {
          [topic]: JSON.stringify({ top: { ...fields, gameKey, timeStamp } }),
        });
        const [seqs] = await statements.txQuery<{ seqs: Record<string, number> }>(
          t,
          bump.sql,
          bump.params,
        );
        const seq = Number(seqs!.seqs[topic]);
        const changes = { homeScore: { from, to: from + 1 } };
        await statements.txQuery(t, APPEND_GAME_EVENT_SQL, [
          gameKey,
          eventId,
          row.uid,
          null,
          null,
          seq,
          fields.gamePeriod ?? null,
          Date.now(),
          JSON.stringify({ kind: 'set', values: { homeScore: from + 1 } }),
          JSON.stringify(changes),
          null,
          JSON.stringify({ eventId, seq, timeStamp, changes }),
          JSON.stringify(fields),
          timeStamp,
          JSON.stringify({ homeScore: seq }),
          false,
        ]);
      });
    };
    for (let i = 0; i < WARMUP; i++) await write(keys[i % keys.length]!);
    const latencies: number[] = [];
    const before = threadTicks(process.pid);
    const t0 = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const sent = performance.now();
      await write(keys[i % keys.length]!);
      latencies.push(performance.now() - sent);
    }
    const wallMs = performance.now() - t0;
    const after = threadTicks(process.pid);
    latencies.sort((a, b) => a - b);
    return {
      build: FLOOR_NAME,
      ...cpuPerWrite(before, after, process.pid),
      wallMs,
      failed: 0,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await pglite.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const builds: Run[] = [{ name: 'this', cwd: root }];
  const variant = option('variant');
  if (variant) {
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
  try {
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which build goes first, so a trend in the machine's load favours neither.
      const order = r % 2 === 0 ? builds : builds.toReversed();
      for (const build of order) {
        const res =
          build.name === FLOOR_NAME
            ? await floorRound(google)
            : await round(build, google, pg?.url);
        results.push(res);
        console.log(
          `  ${res.build}: ${res.total.toFixed(2)} CPU ms/write (main ${res.main.toFixed(2)}, other threads ${res.other.toFixed(2)})${res.database === undefined ? '' : `, PostgreSQL ${res.database.toFixed(2)} CPU ms/write`}${res.heap ? `, ${res.heap.allocatedKb.toFixed(1)} KB allocated and ${res.heap.gcMsPerWrite.toFixed(3)} ms of GC per write` : ''}, ${((WRITES / res.wallMs) * 1000).toFixed(0)} writes/s wall, write p50/p99 ${res.p50.toFixed(1)}/${res.p99.toFixed(1)} ms, failed ${res.failed}, load ${load()}`,
        );
      }
    }
  } finally {
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
    for (const build of builds.filter((b) => b.name !== FLOOR_NAME)) {
      console.log(
        `${build.name}: CPU per write ÷ floor's = ${(medianCpu(build.name) / floor).toFixed(2)}× (medians)`,
      );
    }
  }
  if (results.some((r) => r.failed > 0)) process.exitCode = 1;
}

await main();
