// Starting and stopping the processes a benchmark measures: Sagan nodes, baseline servers and
// a throwaway PostgreSQL of the benchmark's own (never the one the tests may be sharing).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiClient } from '../../scripts/lib/local-sign-in.ts';
import { startPostgres as startCluster } from '../../scripts/lib/postgres.ts';
import {
  root,
  SAGAN_READY,
  startServer as startShared,
  type Server,
} from '../../scripts/lib/server.ts';

export { root };
const CPUS = os.cpus().length;
const HAS_TASKSET = fs.existsSync('/usr/bin/taskset');

/**
 * The measured server side runs on core 0, the load generator on core 1 (when there are two).
 * BENCH_SERVER_CORES=0,1 gives the server side both cores, the load generator beside it on
 * core 1: the condition a small box's figures are stated for, where PGlite's thread can use the
 * second core.
 */
export const SERVER_CORES = process.env.BENCH_SERVER_CORES ?? '0';
const pin = (cores: string, cmd: string[]): string[] =>
  CPUS > 1 && HAS_TASKSET ? ['taskset', '-c', cores, ...cmd] : cmd;
/** A command to run on the servers' core(s), as a measured process of a benchmark's own. */
export const pinnedToServerCores = (cmd: string[]): string[] => pin(SERVER_CORES, cmd);

/** Re-runs this script on core 1 so it never competes with the servers on core 0. */
export function reexecPinned(): void {
  if (CPUS < 2 || !HAS_TASKSET || process.env.BENCH_PINNED) return;
  const r = spawnSync(
    'taskset',
    ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: '1' } },
  );
  process.exit(r.status ?? 1);
}

/**
 * Moves this process (every thread) and what it starts from now on to `cores` (a taskset list);
 * no-op on one core or without taskset.
 */
export function pinSelf(cores: string): void {
  if (CPUS < 2 || !HAS_TASKSET) return;
  const r = spawnSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], {
    stdio: 'ignore',
  });
  if (r.status !== 0) throw new Error(`taskset could not move process ${process.pid} to ${cores}`);
}

/**
 * Gives this process (every thread) and what it starts from now on all the cores again, after
 * reexecPinned. For Lighthouse: its CPU throttling multiplies the page's main-thread tasks as
 * they ran here, so a browser squeezed onto one core beside the benchmark's own process scores
 * that squeeze, not the page (Lighthouse expects an unloaded machine of several cores).
 */
export function unpinSelf(): void {
  if (process.env.BENCH_PINNED) pinSelf(`0-${CPUS - 1}`);
}

export type { Server };

/** A server process for a benchmark, on core 0 with the other measured processes. */
export const startServer = (
  cmd: string[],
  env: Record<string, string>,
  ready: RegExp,
  cwd = root,
): Promise<Server> => startShared(pin(SERVER_CORES, cmd), env, ready, { cwd });

export async function stopServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(async (s) => {
      if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
      const exited = new Promise((r) => s.proc.once('exit', r));
      s.proc.kill('SIGTERM');
      const timer = setTimeout(() => s.proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

/**
 * Node flags of every measured server: tsx, and a GC on SIGUSR2 (see gc-on-signal.mjs). Read when
 * a server starts, so that a benchmark may set BENCH_LOOP_DELAY after its imports ran.
 */
export const measuredNodeFlags = (): string[] => [
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops, to see where
  // a server's core goes (Node refuses --cpu-prof in NODE_OPTIONS).
  ...(process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : []),
  '--expose-gc',
  '--import',
  './bench/lib/gc-on-signal.mjs',
  // BENCH_LOOP_DELAY=<dir>: the event loop's delay per sample (loop-delay.mjs), from this
  // checkout's file, so that a baseline's server is measured the same way.
  ...(process.env.BENCH_LOOP_DELAY
    ? ['--import', new URL('./loop-delay.mjs', import.meta.url).href]
    : []),
  // BENCH_HEAP_PROF=<dir>: what each sample's work allocated, garbage included (heap-sampling.mjs).
  ...(process.env.BENCH_HEAP_PROF
    ? ['--import', new URL('./heap-sampling.mjs', import.meta.url).href]
    : []),
  '--import',
  'tsx',
];

/** RSS after a full GC in the process, so garbage does not count as memory per viewer. */
export async function settledRssKb(pid: number): Promise<number> {
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    // gone: rssKb below throws with a clear message
  }
  await sleep(500);
  return rssKb(pid);
}

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** What loop-delay.mjs saw in a server since the sample before (see that file). */
export interface LoopSample {
  p50: number;
  p99: number;
  max: number;
  cpuMs: number;
  gcs: number;
  gcMs: number;
  majorGcs: number;
  majorGcMs: number;
  /** Collections by V8's kind (Scavenge, MarkSweepCompact, ...). */
  byType: Record<string, number>;
  /** The young generation's size after the last collection. */
  newSpaceMb: number;
  allocatedKb: number;
}

/**
 * A server's event-loop delay, CPU time (all its threads) and collections since the last call
 * (loop-delay.mjs, preloaded when BENCH_LOOP_DELAY is set, answers SIGWINCH).
 */
export async function loopSample(pid: number): Promise<LoopSample> {
  const file = path.join(process.env.BENCH_LOOP_DELAY!, `${pid}.json`);
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGWINCH');
  while (!fs.existsSync(file)) await sleep(5);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as LoopSample;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startSagan(opts: {
  dataDir: string;
  databaseUrl?: string;
  webDist?: string;
  google?: GoogleStandIn;
  /** Overrides of the environment below (e.g. RATE_LIMIT_FACTOR '1' for the limits as shipped). */
  env?: Record<string, string>;
  /** Another checkout to run (a baseline of older code); this one by default. */
  cwd?: string;
}): Promise<Server> {
  return startServer(
    ['node', ...measuredNodeFlags(), 'apps/server/src/server.ts'],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      DEMO: 'false',
      SIMULATE: 'false',
      LOG_LEVEL: 'warn',
      // Benchmarks open thousands of sockets from one address: far above the per-address limit.
      RATE_LIMIT_FACTOR: '100000',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...(opts.webDist ? { WEB_DIST: opts.webDist } : {}),
      ...(opts.google
        ? {
            GOOGLE_CLIENT_ID: opts.google.clientId,
            GOOGLE_JWKS_URL: opts.google.jwksUrl,
            GOOGLE_ISSUERS: opts.google.issuer,
          }
        : {}),
      ...opts.env,
    },
    SAGAN_READY,
    opts.cwd,
  );
}

/**
 * Google's part of a phone app's sign-in, played by the benchmark: an RS256 key of its own,
 * served as a JWKS on loopback, and ID tokens signed with it. Sagan verifies them exactly as it
 * verifies Google's (the integration tests do the same).
 */
export interface GoogleStandIn {
  clientId: string;
  issuer: string;
  jwksUrl: string;
  idToken(uid: string, name: string): Promise<string>;
  close(): void;
}

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }],
  });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(jwks);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const clientId = 'bench-client.apps.example';
  const issuer = 'https://accounts.google.com';
  return {
    clientId,
    issuer,
    jwksUrl: `http://127.0.0.1:${port}/certs`,
    idToken: (uid, name) =>
      new SignJWT({ name })
        .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
        .setSubject(uid)
        .setIssuer(issuer)
        .setAudience(clientId)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
    close: () => server.close(),
  };
}

/** A phone app's calls to the scorekeeping API: a Google ID token as Bearer, no cookie. */
export function bearerClient(base: string, idToken: string) {
  return apiClient(base, { authorization: `Bearer ${idToken}` });
}

/**
 * A PostgreSQL cluster of the benchmark's own, on core 0 with the servers. Not scripts/pg.sh:
 * that one stops whatever cluster the tests have in .tmp/pg.
 */
export const startPostgres = () => startCluster({ wrap: (cmd) => pin(SERVER_CORES, cmd) });

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'cpu';
  return `${cpu} × ${CPUS}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
