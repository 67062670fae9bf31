import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAGAN_READY, startServer } from '../../../scripts/lib/server.ts';

/**
 * `npm start` as a club runs it (`node scripts/start.mjs`): it builds the compiled server when
 * missing or stale, then is the server itself: one process, running compiled JavaScript, with
 * no TypeScript transpiler loaded, and the signals it receives are the server's.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

// Customisation hooks that write every module the process loads to a file: the module graph
// of another process, seen from outside. They only look; resolution is left to Node. Each line
// names its process: the builds start.mjs runs in children load esbuild, and they inherit the
// hooks through NODE_OPTIONS.
const hooks = `
import fs from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  fs.appendFileSync(file, process.pid + ' ' + result.url + '\\n');
  return result;
}`;
const register = `
import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, {
  data: { file: process.env.MODULES_FILE },
});`;

function childPids(pid: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The parent's pid is the 2nd field after the command name in parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

describe('npm start', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-start-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is one process running the compiled server, no transpiler loaded; SIGTERM stops it cleanly', async () => {
    const modulesFile = path.join(dir, 'modules.txt');
    fs.writeFileSync(modulesFile, '');
    const server = await startServer(
      [process.execPath, 'scripts/start.mjs'],
      {
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: path.join(dir, 'data'),
        // As `npm start` runs by default: the demo, with its simulated games playing.
        DEMO: 'true',
        SIMULATE: 'true',
        LOG_FORMAT: 'json',
        // A web app built elsewhere (none here): start.mjs leaves it alone, the server serves
        // the API only. The web build is not what this checks, and takes minutes.
        WEB_DIST: path.join(dir, 'no-web'),
        NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(register)}`,
        MODULES_FILE: modulesFile,
      },
      SAGAN_READY,
      // start.mjs may build the server first.
      { isolated: true, timeoutMs: 200_000 },
    );
    const { proc: child, exited } = server;
    const url = `http://127.0.0.1:${server.port}/apps/sagan/`;
    try {
      const health = await fetch(`${url}api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ database: 'pglite' });
      // A sign-in sets its cookie, which the next request is known by: the compiled server's
      // cookie code works as the source's does.
      const signIn = await fetch(`${url}api/auth/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
        body: JSON.stringify({ displayName: 'Start Checker' }),
      });
      expect(signIn.status).toBe(200);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      expect(cookie).toMatch(/=./);
      const session = await fetch(`${url}api/auth/session`, { headers: { cookie } });
      expect(await session.json()).toMatchObject({ user: { displayName: 'Start Checker' } });

      // The server's own log lines carry the pid of the process npm started: the same one.
      const pids = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { pid: number }).pid);
      expect(pids.length).toBeGreaterThan(0);
      expect(new Set(pids)).toEqual(new Set([child.pid]));
      // No second process: the builds ran in children that have exited; the database is a
      // thread of this process.
      expect(childPids(child.pid!)).toEqual([]);

      // The server's own modules: the lines of the process npm started.
      const modules = fs
        .readFileSync(modulesFile, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith(`${child.pid} `))
        .map((line) => line.slice(line.indexOf(' ') + 1));
      expect(modules).toContain(`file://${ROOT}/apps/server/dist/server.js`);
      expect(modules.filter((m) => /\/node_modules\/(tsx|esbuild)\/|\.tsx?$/.test(m))).toEqual([]);
      // On PGlite the PostgreSQL driver is never loaded (the build leaves it in node_modules,
      // so loading it would show here): it cost every start 70–100 ms.
      expect(modules.filter((m) => m.includes('/node_modules/pg/'))).toEqual([]);

      // The stop is sent while the simulator is at work (its writes show on the recent games);
      // whether it lands inside a tick is up to the machine: scoreboards-demo.test.ts holds a
      // tick open for it.
      const recent = () => fetch(`${url}api/games/recent`).then((r) => r.text());
      const first = await recent();
      await expect.poll(recent, { timeout: 60_000 }).not.toBe(first);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const out = server.output();
    expect(out).toContain('"signal":"SIGTERM"');
    // Shutting down logs no warning or error (a simulator tick cut off by the database's close
    // did). Before it, the server warns that it serves no web app: this run built none.
    const troubles = out
      .slice(out.indexOf('"signal":"SIGTERM"'))
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .filter((l) => (JSON.parse(l) as { level: number }).level >= 40);
    expect(troubles).toEqual([]);
  }, 240_000);
});
