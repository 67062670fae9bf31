// Starting a server process and waiting until it says where it listens: the Sagan server for
// scripts, benchmarks and the e2e run, and the benchmarks' baseline servers.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

export interface Server {
  port: number;
  pid: number;
  proc: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /**
   * What it has printed, both streams: all of it for an isolated server, else only up to the
   * line that said it listens (a long bench run keeps no log in memory).
   */
  output: () => string;
}

/** What Sagan prints once it listens; the group is the port. */
export const SAGAN_READY = /running at http:\/\/127\.0\.0\.1:(\d+)\//;

/** The Sagan server run from source, as `npm start` runs it (after the build). */
const SAGAN_SERVER = ['--import', 'tsx', 'apps/server/src/server.ts'];

/** Sagan for a script: loopback only, no demo games, quiet logs. */
const SCRIPT_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  DEMO: 'false',
  SIMULATE: 'false',
  LOG_LEVEL: 'warn',
};

/**
 * Spawns cmd and resolves once its output matches ready (whose first group is the port). Its
 * output before then is kept for the error if it exits or hangs; after, stderr is passed on.
 * `isolated` is for a test's own server: it inherits no environment but PATH and HOME (so no
 * database or setting of the test run leaks in), and prints nothing: the test reads output().
 */
export function startServer(
  cmd: string[],
  env: Record<string, string>,
  ready: RegExp = SAGAN_READY,
  opts: { cwd?: string; timeoutMs?: number; isolated?: boolean } = {},
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const [bin, ...rest] = cmd;
    const inherited = opts.isolated
      ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }
      : process.env;
    const proc = spawn(bin!, rest, {
      cwd: opts.cwd ?? root,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => proc.once('exit', r));
    let out = '';
    let started = false;
    const keep = (d: Buffer) => {
      if (!started || opts.isolated) out += d.toString();
    };
    proc.stdout!.on('data', (d: Buffer) => {
      keep(d);
      if (started) return;
      const m = ready.exec(out);
      if (m) {
        started = true;
        resolve({ port: Number(m[1]), pid: proc.pid!, proc, exited, output: () => out });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => {
      keep(d);
      if (started && !opts.isolated) process.stderr.write(d);
    });
    proc.once('exit', (code) => {
      if (!started) reject(new Error(`server exited (${code}) before listening:\n${out}`));
    });
    setTimeout(() => {
      if (!started) {
        proc.kill('SIGKILL');
        reject(new Error(`server did not start:\n${out}`));
      }
    }, opts.timeoutMs ?? 120_000).unref();
  });
}

/** The Sagan server from source with the script defaults, env on top. */
export function startSaganServer(
  env: Record<string, string>,
  opts: { isolated?: boolean } = {},
): Promise<Server> {
  return startServer(
    [process.execPath, ...SAGAN_SERVER],
    { ...SCRIPT_ENV, ...env },
    SAGAN_READY,
    opts,
  );
}
