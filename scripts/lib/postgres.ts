// A throwaway PostgreSQL cluster in a temporary folder, on a free loopback port, tuned for tests
// (no fsync: the data is thrown away). scripts/pg.sh keeps one for the test command; scripts and
// benchmarks that must not stop that one start their own.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './net.ts';

export interface Cluster {
  url: string;
  /** The folder holding the data and the log; stopPostgres(dir) stops it from another process. */
  dir: string;
  stop(): void;
}

/** Wraps a command, e.g. to pin it to a core; the identity by default. */
type Wrap = (cmd: string[]) => string[];

function pgBin(): string {
  const base = '/usr/lib/postgresql';
  const bin =
    process.env.PGBIN ??
    (fs.existsSync(base)
      ? fs
          .readdirSync(base)
          .sort((a, b) => Number(a) - Number(b))
          .map((v) => path.join(base, v, 'bin'))
          .at(-1)
      : undefined);
  if (!bin || !fs.existsSync(path.join(bin, 'initdb'))) {
    throw new Error(`PostgreSQL binaries not found (looked in ${base}/*/bin)`);
  }
  return bin;
}

/** PostgreSQL refuses to run as root, so as root it runs as the postgres user. */
function runAsPostgres(cmd: string[], wrap: Wrap = (c) => c): void {
  const full = wrap(process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd);
  const r = spawnSync(full[0]!, full.slice(1), { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')}: ${r.stderr || r.stdout}`);
}

export async function startPostgres(opts: { wrap?: Wrap } = {}): Promise<Cluster> {
  const bin = pgBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-pg-'));
  fs.chmodSync(dir, 0o755);
  if (process.getuid?.() === 0) spawnSync('chown', ['postgres', dir]);
  const port = await freePort();
  const data = path.join(dir, 'data');
  const run = (cmd: string[]) => runAsPostgres(cmd, opts.wrap);
  run([`${bin}/initdb`, '-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  run([
    `${bin}/pg_ctl`,
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-t',
    '30',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    stop: () => stopPostgres(dir, opts.wrap),
  };
}

export function stopPostgres(dir: string, wrap?: Wrap): void {
  try {
    runAsPostgres(
      [`${pgBin()}/pg_ctl`, '-D', path.join(dir, 'data'), '-m', 'immediate', 'stop'],
      wrap,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh database in the cluster at adminUrl for one run; drop() removes it. */
export async function freshDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
