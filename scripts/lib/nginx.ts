// nginx in front of Sagan nodes, for the proxy test and the Saturday benchmark: Debian's nginx
// with the site file docs/deploy.md shows (deploy/nginx-sagan.conf), run unprivileged-style
// from a folder of its own under .tmp (config, pid, logs, temp files), on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './net.ts';
import { root } from './server.ts';

export const NGINX_SITE = path.join(root, 'deploy/nginx-sagan.conf');

export function nginxBinary(): string | null {
  for (const bin of [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (bin && fs.existsSync(bin)) return bin;
  }
  return null;
}

/** The site file with its placeholders filled in: where nginx listens, and the nodes. */
function renderSite(listen: string, nodes: string[]): string {
  const site = fs.readFileSync(NGINX_SITE, 'utf8');
  return site
    .replaceAll('{{LISTEN}}', listen)
    .replaceAll('{{NODES}}', nodes.map((n) => `server ${n};`).join('\n    '));
}

export interface Nginx {
  port: number;
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/** Starts nginx on a free loopback port in front of the nodes (host:port each). */
export async function startNginx(
  nodes: string[],
  opts: { wrap?: (cmd: string[]) => string[]; workerConnections?: number } = {},
): Promise<Nginx> {
  const bin = nginxBinary();
  if (!bin) throw new Error('nginx not found (apt-get install nginx-light, or set NGINX_BIN)');
  const base = path.join(root, '.tmp');
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, 'nginx-'));
  // Worker processes of a root-started nginx run as nobody: they must reach their temp folders.
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'sagan.conf'), renderSite(`127.0.0.1:${port}`, nodes));
  const connections = opts.workerConnections ?? 4096;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `worker_rlimit_nofile ${connections * 2 + 64};`,
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      `events { worker_connections ${connections}; }`,
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (t) => `  ${t}_temp_path ${dir}/${t};`,
      ),
      `  include ${dir}/sagan.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const conf = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')];
  const check = spawnSync(bin, ['-t', '-q', ...conf], { encoding: 'utf8' });
  if (check.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx -t: ${check.stderr || check.stdout}`);
  }
  const cmd = (opts.wrap ?? ((c) => c))([bin, ...conf]);
  const proc: ChildProcess = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  // Listening once a connection is accepted.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${err}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`nginx did not listen on ${port}: ${err}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGQUIT'); // graceful: workers finish, then the master exits
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
