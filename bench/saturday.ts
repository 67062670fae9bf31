// bench/saturday: a real Saturday morning. G live games with V viewers each, D viewers on the
// home page, and scorekeepers writing at rising rates spread over the games through the real
// API (half as a phone app with a Google ID token, half as the web scorekeeper's outbox: a
// session cookie, an Idempotency-Key and the base seq per write). Per rate:
// writes/s done, write latency, write→viewer latency, frames per home-page viewer per second,
// home-page staleness (a write → the home page showing it), lost (viewers not on their game's
// final state) and the load generator's own CPU, on PGlite, PostgreSQL and two nodes behind
// nginx on one PostgreSQL. Method notes are in docs/performance.md.
//
//   npm run bench:saturday                        # both scenarios, every target (≈ 15 min)
//   npm run bench:saturday -- --smoke             # small, home scenario only (in the test command)
//   npm run bench:saturday -- --baseline main     # the same, paired with main's server
//   npm run bench:saturday -- --scenario games --targets sagan-pg --rates 400,800
//   npm run bench:saturday -- --scenario games --targets sagan --rates 200 --worst 10
//   npm run bench:saturday -- --scenario games --targets sagan --rates 100 --loop-delay
//   npm run bench:saturday -- --baseline main --seconds 60 --pairs 3   # six 10-s turns each
//
// Exit status 1 when any viewer is not on its game's final state.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { flag, option } from '../scripts/lib/cli-args.ts';
import { freshDatabase } from '../scripts/lib/postgres.ts';
import { startNginx, type Nginx } from '../scripts/lib/nginx.ts';
import { apiCaller, scorekeeperWithGame } from './lib/api.ts';
import { baselineCheckout, type Build } from './lib/baseline.ts';
import {
  loopSample,
  machine,
  percentile,
  reexecPinned,
  SERVER_CORES,
  root,
  sleep,
  startGoogleStandIn,
  startPostgres,
  startSagan,
  stopServers,
  type GoogleStandIn,
  type Server,
} from './lib/procs.ts';
import { monotonicMs, startViewers, type Viewers } from './lib/viewers-thread.ts';

const list = (v: string) => v.split(',').map((x) => x.trim());

const SMOKE = flag('smoke');
// The smoke run skips sagan-pg: sagan-2node already goes through PostgreSQL (and nginx).
const TARGETS = list(
  option('targets') ?? (SMOKE ? 'sagan,sagan-2node' : 'sagan,sagan-pg,sagan-2node'),
);
// The smoke run has one scenario: its home one also holds game viewers, so it takes every path
// the games scenario takes, and each scenario costs a fresh server per system.
const SCENARIOS = option('scenario') ? [option('scenario')!] : SMOKE ? ['home'] : ['games', 'home'];
const SECONDS = Number(option('seconds') ?? (SMOKE ? 2 : 8));
/**
 * Each system first takes writes at its first rate for this long, unrecorded: a fresh server's
 * first seconds (JIT, prepared statements, caches) would otherwise be read as its lowest rate.
 */
const WARMUP_SECONDS = Number(option('warmup') ?? (SMOKE ? 0 : 3));
// Paired systems take turns this many times per rate (A B B A each time), in slices of the same
// total: a host whose speed drifts over minutes then slows both builds alike, where two long
// halves each could land on a slow stretch of their own.
const PAIRS = Number(option('pairs') ?? 1);
if (!Number.isInteger(PAIRS) || PAIRS < 1) throw new Error('--pairs must be a whole number ≥ 1');
const BASELINE = option('baseline');
const INTERVAL_MS = Number(option('interval') ?? 1000);
/**
 * `mixed`: half the scorekeepers write as the web outbox, half as phone apps. `app`: all as
 * phone apps, the one way a build from before the browser scorekeeper accepts writes.
 */
const WRITERS = option('writers') ?? 'mixed';
if (!['mixed', 'app'].includes(WRITERS)) throw new Error(`--writers mixed|app, not ${WRITERS}`);
const isWebWriter = (i: number) => WRITERS === 'mixed' && i % 2 === 1;
/**
 * `--worst N`: each sample also prints its N slowest writes, with the second (from the sample's
 * start) and the wall-clock time each was sent, to line a stall up with a server's own marks.
 */
const WORST = Number(option('worst') ?? 0);
/**
 * `--loop-delay`: each sample also reads the server's event-loop delay, beyond the monitor's own
 * 10 ms interval (bench/lib/loop-delay.mjs).
 */
const LOOP_DELAY = flag('loop-delay');
if (LOOP_DELAY) {
  process.env.BENCH_LOOP_DELAY ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-loop-delay-'));
}
const BATCH = 250;
/** Home-page viewers that decode their frames to time staleness (the rest only count them). */
const STALENESS_SAMPLE = 20;
/** Home-page viewers of the two-node target by default (see main). */
const NGINX_HOME_VIEWERS = 4000;

interface Scenario {
  games: number;
  viewers: number;
  home: number;
  /** Rates (writes/s asked) per target. */
  rates: Record<string, number[]>;
}

const SCENARIO_DEFAULTS: Record<string, Scenario> = SMOKE
  ? {
      games: { games: 20, viewers: 5, home: 0, rates: { '*': [50] } },
      home: { games: 20, viewers: 5, home: 300, rates: { '*': [50] } },
    }
  : {
      games: {
        games: 200,
        viewers: 20,
        home: 0,
        rates: {
          sagan: [100, 200, 400, 600],
          'sagan-pg': [200, 400, 800, 1000],
          'sagan-2node': [200, 400, 800],
        },
      },
      home: {
        games: 50,
        viewers: 2,
        home: 10_000,
        rates: { '*': [10, 25, 50, 100] },
      },
    };

function scenario(name: string): Scenario {
  const d = SCENARIO_DEFAULTS[name];
  if (!d) throw new Error(`unknown scenario ${name}`);
  const home = Number(option('home') ?? d.home);
  return {
    games: Number(option('games') ?? d.games),
    viewers: Number(option('viewers') ?? d.viewers),
    home,
    rates: option('rates') ? { '*': list(option('rates')!).map(Number) } : d.rates,
  };
}

const ratesFor = (s: Scenario, target: string) => s.rates[target] ?? s.rates['*'] ?? [];

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const call = apiCaller(agent);

interface Game {
  key: string;
  headers: Record<string, string>;
  /** Score of the last write sent, and of the last one answered 200. */
  sentScore: number;
  okScore: number;
  /** Its place in the system's games (and the viewers' thread's). */
  index: number;
  /** A web scorekeeper's writes carry an Idempotency-Key and the last seq answered, as its outbox does. */
  web: boolean;
  seq: number;
  busy: boolean;
  queued: number;
}

/** One system under test: a target (sagan, sagan-pg, sagan-2node) built from a checkout. */
interface System {
  label: string;
  servers: Server[];
  nginx: Nginx | null;
  base: URL;
  games: Game[];
  stop(): Promise<void>;
}

async function startSystem(
  build: Build,
  target: string,
  sc: Scenario,
  google: GoogleStandIn,
  pgUrl: string | undefined,
): Promise<System> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-sat-'));
  const db = target === 'sagan' ? null : await freshDatabase(pgUrl!, 'saturday');
  const env = {
    // Web scorekeepers sign in with a session.
    ALLOW_LOCAL_SIGNIN: 'true',
    REALTIME_COALESCE_MS: String(INTERVAL_MS),
    TRUST_PROXY: target === 'sagan-2node' ? '127.0.0.1' : '',
  };
  const servers: Server[] = [];
  let nginx: Nginx | null = null;
  const common = { google, cwd: build.cwd, env, databaseUrl: db?.url };
  try {
    servers.push(await startSagan({ dataDir, ...common }));
    if (target === 'sagan-2node') {
      servers.push(await startSagan({ dataDir: `${dataDir}-b`, ...common }));
      const pin = (cmd: string[]) => (os.cpus().length > 1 ? ['taskset', '-c', '0', ...cmd] : cmd);
      nginx = await startNginx(
        servers.map((s) => `127.0.0.1:${s.port}`),
        { wrap: pin, workerConnections: 4 * (sc.games * sc.viewers + sc.home) + 1024 },
      );
    }
  } catch (err) {
    await stopServers(servers);
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}-b`, { recursive: true, force: true });
    throw err;
  }
  const base = new URL(nginx?.url ?? `http://127.0.0.1:${servers[0]!.port}`);
  const games: Game[] = [];
  for (let i = 0; i < sc.games; i++) {
    const { gameKey, headers } = await scorekeeperWithGame(
      call,
      base,
      google,
      i,
      isWebWriter(i),
      `Saturday ${i}`,
    );
    games.push({
      key: gameKey,
      headers,
      sentScore: 0,
      okScore: 0,
      index: i,
      web: isWebWriter(i),
      seq: 0,
      busy: false,
      queued: 0,
    });
  }
  return {
    label: `${target} ${build.name}`,
    servers,
    nginx,
    base,
    games,
    async stop() {
      await nginx?.stop();
      await stopServers(servers);
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}-b`, { recursive: true, force: true });
    },
  };
}

function connectViewers(sys: System, sc: Scenario): Promise<Viewers> {
  return startViewers({
    wsUrl: `ws://${sys.base.host}/apps/sagan/ws`,
    gameKeys: sys.games.map((g) => g.key),
    viewersPerGame: sc.viewers,
    home: sc.home,
    stalenessSample: STALENESS_SAMPLE,
    batch: BATCH,
  });
}

interface Row {
  system: string;
  asked: number;
  done: number;
  failed: number;
  writeP50: number;
  writeP99: number;
  viewerP50: number;
  viewerP99: number;
  homeFramesPerViewerS: number;
  stalenessP99: number;
  lost: number;
  clientCpu: number;
}

/** What one system's samples of one rate gathered, summed over its runs of the rate. */
interface Tally {
  writeTimes: number[];
  deliveries: number[];
  staleness: number[];
  homeFrames: number;
  done: number;
  failed: number;
  /** Seconds writes were sent for, and seconds recorded (drain included). */
  elapsed: number;
  wall: number;
  clientCpuS: number;
  lost: number;
}

const newTally = (): Tally => ({
  writeTimes: [],
  deliveries: [],
  staleness: [],
  homeFrames: 0,
  done: 0,
  failed: 0,
  elapsed: 0,
  wall: 0,
  clientCpuS: 0,
  lost: 0,
});

/** Sends writes at `rate` to one system for `seconds` and adds what was seen to `tally`. */
async function runRate(
  sys: System,
  viewers: Viewers,
  rate: number,
  seconds: number,
  tally = newTally(),
): Promise<Tally> {
  const { writeTimes } = tally;
  /** [sent at, ms] of each answered write, for --worst. */
  const writeLog: Array<[number, number]> = [];
  let done = 0;
  let failed = 0;
  let next = 0;
  const send = (game: Game) => {
    game.busy = true;
    const score = ++game.sentScore;
    const at = monotonicMs();
    viewers.sent(game.index, score, at);
    const write = game.web
      ? call(
          sys.base,
          'PATCH',
          `/games/${game.key}`,
          { ...game.headers, 'idempotency-key': `w${game.key}-${score}` },
          { homeScore: score, baseSeq: game.seq },
        )
      : call(sys.base, 'PATCH', `/games/${game.key}`, game.headers, { homeScore: score });
    write
      .then(
        (r) => {
          if (r.status === 200) {
            if (game.web) game.seq = (JSON.parse(r.body) as { seq: number }).seq;
            game.okScore = score;
            done++;
            const took = monotonicMs() - at;
            writeTimes.push(took);
            if (WORST) writeLog.push([at, took]);
          } else failed++;
        },
        () => failed++,
      )
      .finally(() => {
        game.busy = false;
        // A scorekeeper's next tap waits for the previous answer, so scores stay in order.
        if (game.queued > 0) {
          game.queued--;
          send(game);
        }
      });
  };
  if (LOOP_DELAY) await loopSample(sys.servers[0]!.proc.pid!);
  // The load generator's own loop also times every write: a stall of its own (its viewers'
  // frames, its GC) reads as slow writes of whichever system it fell on.
  const ownDelay = LOOP_DELAY ? monitorEventLoopDelay({ resolution: 10 }) : undefined;
  ownDelay?.enable();
  const cpu0 = process.cpuUsage();
  const t0 = monotonicMs();
  viewers.record(true);
  let asked = 0;
  const durationMs = seconds * 1000;
  while (monotonicMs() - t0 < durationMs) {
    const due = Math.floor(((monotonicMs() - t0) / 1000) * rate);
    for (; asked < due; asked++) {
      const game = sys.games[next++ % sys.games.length]!;
      if (game.busy) game.queued++;
      else send(game);
    }
    await sleep(2);
  }
  const elapsed = (monotonicMs() - t0) / 1000;
  const doneInWindow = done;
  ownDelay?.disable();
  const delay = LOOP_DELAY ? await loopSample(sys.servers[0]!.proc.pid!) : undefined;
  if (delay && ownDelay) {
    // As loop-delay.mjs reads the server's: only what exceeds the 10-ms timer was late.
    const late = (ns: number) => Math.max(0, ns / 1e6 - 10).toFixed(1);
    console.error(
      `  ${sys.label} ${rate}/s: event-loop delay p50 ${delay.p50} ms, p99 ${delay.p99} ms, max ${delay.max} ms; server CPU ${(delay.cpuMs / doneInWindow).toFixed(2)} ms per write, ${(delay.allocatedKb / doneInWindow).toFixed(0)} KB allocated per write, ${delay.gcs} GCs (${delay.gcMs} ms), of them ${delay.majorGcs} full (${delay.majorGcMs} ms), young generation ${delay.newSpaceMb} MB, ${JSON.stringify(delay.byType)}; load generator's loop p99 ${late(ownDelay.percentile(99))} ms, max ${late(ownDelay.max)} ms`,
    );
  }
  // Drain: queued taps are dropped (asked, not done), in-flight ones finish, aggregates flush.
  for (const g of sys.games) g.queued = 0;
  while (sys.games.some((g) => g.busy)) await sleep(10);
  await sleep(INTERVAL_MS + 1500);
  viewers.record(false);
  const seen = await viewers.collect();
  const cpu = process.cpuUsage(cpu0);
  let lost = 0;
  for (let v = 0; v < viewers.last.length; v++) {
    if (viewers.last[v] !== sys.games[viewers.gameOf[v]!]!.okScore) lost++;
  }
  if (WORST) printWorst(sys.label, rate, seconds, t0, writeLog);
  for (const d of seen.deliveries) tally.deliveries.push(d);
  for (const d of seen.staleness) tally.staleness.push(d);
  tally.homeFrames += seen.homeFrames;
  tally.done += doneInWindow;
  tally.failed += failed;
  tally.elapsed += elapsed;
  tally.wall += (monotonicMs() - t0) / 1000;
  tally.clientCpuS += (cpu.user + cpu.system) / 1e6;
  tally.lost = Math.max(tally.lost, lost);
  return tally;
}

function rowOf(sys: System, sc: Scenario, rate: number, t: Tally): Row {
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  const w = sorted(t.writeTimes);
  const d = sorted(t.deliveries);
  const st = sorted(t.staleness);
  return {
    system: sys.label,
    asked: rate,
    done: t.done / t.elapsed,
    failed: t.failed,
    writeP50: percentile(w, 50),
    writeP99: percentile(w, 99),
    viewerP50: percentile(d, 50),
    viewerP99: percentile(d, 99),
    homeFramesPerViewerS: sc.home ? t.homeFrames / sc.home / t.wall : NaN,
    stalenessP99: percentile(st, 99),
    lost: t.lost,
    clientCpu: (t.clientCpuS / t.wall) * 100,
  };
}

function printWorst(
  label: string,
  rate: number,
  seconds: number,
  t0: number,
  log: Array<[number, number]>,
): void {
  const worst = [...log].sort((a, b) => b[1] - a[1]).slice(0, WORST);
  console.error(`  ${label} ${rate}/s for ${seconds} s: the ${worst.length} slowest writes`);
  for (const [at, ms] of worst) {
    const wall = new Date(Date.now() - (monotonicMs() - at)).toISOString().slice(11, 23);
    console.error(`    +${((at - t0) / 1000).toFixed(2)} s (${wall}): ${ms.toFixed(0)} ms`);
  }
}

const loadAtStart = os.loadavg()[0]!;

/** This process's open-file limit (the soft one), from /proc; a generous guess elsewhere. */
function openFileLimit(): number {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : 65536;
  } catch {
    return 65536;
  }
}

/**
 * Paired systems share each rate's time in two halves, in the order A B B A: each is first as
 * often as second at every rate. Whichever ran first at a rate was otherwise always the same
 * build, and a server's work on a schedule of its own (a heartbeat every 30 s) lands at the
 * same offsets of the run every time, so a one-sided stall could repeat run after run.
 */
const runOrder = <T>(order: T[]): T[] =>
  order.length > 1 ? [...order, ...[...order].reverse()] : order;

/** Splits items into runs whose sockets fit in the open-file limit together, in order. */
function fdGroups<T>(items: T[], sockets: (item: T) => number): T[][] {
  // Writers' keep-alive sockets, the database, stdio and the Google stand-in.
  const budget = openFileLimit() - 1024;
  const groups: T[][] = [];
  let used = Infinity;
  for (const item of items) {
    const need = sockets(item);
    if (used + need > budget) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1)!.push(item);
    used += need;
  }
  return groups;
}

async function main() {
  reexecPinned();
  const builds: Build[] = [{ name: 'this', cwd: root }];
  const baseline = BASELINE ? baselineCheckout(BASELINE) : null;
  if (baseline) builds.push(baseline.build);
  const needsPg = TARGETS.some((t) => t !== 'sagan');
  const pg = needsPg ? await startPostgres() : null;
  const google = await startGoogleStandIn();
  const rows: Array<Row & { scenario: string; sc: Scenario }> = [];
  let failures = 0;
  try {
    for (const name of SCENARIOS) {
      const scAll = scenario(name);
      for (const target of TARGETS) {
        const rates = ratesFor(scAll, target);
        // Through nginx every viewer holds two of the proxy's descriptors (and one of ours):
        // unless asked, the two-node home page stays within a 20,000-descriptor limit.
        const sc =
          target === 'sagan-2node' && !option('home')
            ? { ...scAll, home: Math.min(scAll.home, NGINX_HOME_VIEWERS) }
            : scAll;
        // With home-page viewers, each build also runs without them in the same run, so their
        // cost to the games' own viewers is a paired ratio.
        const variants =
          sc.home > 0 && !SMOKE && !flag('no-pair') ? [sc, { ...sc, home: 0 }] : [sc];
        // Every system of this target up at once, viewers connected, rates alternating between
        // them; unless their viewers would not fit in this process's descriptors together, then
        // as many at a time as fit (each group still paired within the same minutes).
        const wanted = builds.flatMap((build) => variants.map((v) => ({ build, v })));
        for (const group of fdGroups(wanted, ({ v }) => v.games * v.viewers + v.home)) {
          const systems: Array<{ sys: System; viewers: Viewers; sc: Scenario }> = [];
          try {
            for (const { build, v } of group) {
              const sys = await startSystem(build, target, v, google, pg?.url);
              systems.push({ sys, viewers: await connectViewers(sys, v), sc: v });
            }
            if (WARMUP_SECONDS > 0 && rates.length) {
              for (const { sys, viewers } of systems) {
                await runRate(sys, viewers, rates[0]!, WARMUP_SECONDS);
              }
            }
            for (const [i, rate] of rates.entries()) {
              const order = i % 2 ? [...systems].reverse() : systems;
              const tallies = new Map(systems.map((s) => [s, newTally()]));
              const runs = Array.from({ length: PAIRS }, () => runOrder(order)).flat();
              for (const s of runs) {
                const seconds = (SECONDS * systems.length) / runs.length;
                await runRate(s.sys, s.viewers, rate, seconds, tallies.get(s));
              }
              for (const s of order) {
                const { sys, sc: v } = s;
                const r = rowOf(sys, v, rate, tallies.get(s)!);
                rows.push({
                  ...r,
                  system: v.home === scAll.home ? r.system : `${r.system} (${v.home} home)`,
                  scenario: name,
                  sc: scAll,
                });
                console.error(
                  `  ${name} ${r.system} ${rate}/s: done ${r.done.toFixed(0)}/s, write p99 ${r.writeP99.toFixed(1)} ms, viewer p99 ${r.viewerP99.toFixed(1)} ms, home ${r.homeFramesPerViewerS.toFixed(2)} frames/s, staleness p99 ${r.stalenessP99.toFixed(0)} ms, lost ${r.lost}, client CPU ${r.clientCpu.toFixed(0)}%`,
                );
              }
            }
          } catch (err) {
            console.error(`  ${name} ${target}: failed: ${String(err).slice(0, 2000)}`);
            failures++;
          } finally {
            for (const { sys, viewers } of systems) {
              await viewers.close();
              await sys.stop();
            }
          }
        }
      }
    }
  } finally {
    google.close();
    pg?.stop();
    baseline?.remove();
    agent.destroy();
  }
  printTables(rows);
  if (failures || rows.some((r) => r.lost > 0)) process.exit(1);
}

function printTables(rows: Array<Row & { scenario: string; sc: Scenario }>) {
  const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
  console.log(
    `\nSaturday on ${machine()}; servers and PostgreSQL on core(s) ${SERVER_CORES}, nginx on core 0, load generator on core 1;` +
      ` ${SECONDS} s per rate (paired systems: ${2 * PAIRS} turns each, in the order A B B A${PAIRS > 1 ? ` × ${PAIRS}` : ''}) after ${WARMUP_SECONDS} s of warm-up at the first rate, unrecorded, per system; aggregate interval ${INTERVAL_MS} ms;` +
      ` writers ${WRITERS === 'app' ? 'all phone apps' : 'half web outbox, half phone apps'};` +
      ` 1-min load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end`,
  );
  for (const name of SCENARIOS) {
    const own = rows.filter((r) => r.scenario === name);
    if (!own.length) continue;
    const sc = own[0]!.sc;
    console.log(
      `\n**${name}**: ${sc.games} games × ${sc.viewers} viewers + ${sc.home} home-page viewers\n`,
    );
    console.log(
      '| system | asked/s | done/s | failed | write p50/p99 ms | write→viewer p50/p99 ms | home frames/viewer/s | home staleness p99 ms | lost | load-gen CPU % |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of own) {
      console.log(
        `| ${r.system} | ${r.asked} | ${f(r.done, 0)} | ${r.failed} | ${f(r.writeP50)} / ${f(r.writeP99)} | ${f(r.viewerP50)} / ${f(r.viewerP99)} | ${f(r.homeFramesPerViewerS, 2)} | ${f(r.stalenessP99, 0)} | ${r.lost} | ${f(r.clientCpu, 0)} |`,
      );
    }
  }
  // What the home-page viewers cost a game's own viewers: the same build at the same rate,
  // with and without them (paired in one run).
  const pairs = rows.filter((r) => r.system.endsWith(' (0 home)'));
  if (pairs.length) {
    console.log('\n| system | asked/s | write→viewer p99 with / without home viewers |');
    console.log('|---|---:|---:|');
    for (const without of pairs) {
      const label = without.system.slice(0, -' (0 home)'.length);
      const withHome = rows.find(
        (r) => r.system === label && r.asked === without.asked && r.scenario === without.scenario,
      );
      if (!withHome) continue;
      console.log(
        `| ${label} | ${without.asked} | ${f(withHome.viewerP99 / without.viewerP99, 2)} (${f(withHome.viewerP99)} / ${f(without.viewerP99)} ms) |`,
      );
    }
  }
  const lost = rows.reduce((a, r) => a + r.lost, 0);
  if (lost > 0) console.log(`\nVIEWERS NOT ON THE FINAL STATE: ${lost}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
