// Durability under SIGKILL (issue 7): performs acknowledged writes against the real server while
// killing it with SIGKILL at random moments and restarting it, then checks that every write the
// server acknowledged is there, exactly as sent.
//
//   node --import tsx scripts/durability.ts [--writes 1000] [--db pglite|postgres|both]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1]!;
};
const WRITES = Number(opt('writes', '1000'));
const KINDS = opt('db', 'both') === 'both' ? ['pglite', 'postgres'] : [opt('db', 'pglite')];
const IN_FLIGHT = 4;

interface Running {
  proc: ChildProcess;
  base: string;
  exited: Promise<void>;
}

function start(env: Record<string, string>): Promise<Running> {
  let running: Running | undefined;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve({ ...running!, base: `${m[1]}/apps/sagan/api` });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    void exited;
    running = { proc, base: '', exited };
  });
}

function gameBody(i: number) {
  return {
    gameName: `Durability ${i}`,
    gameDate: '2026-11-22',
    roster: [
      { key: 'p1', jersey: '1', playerName: 'Ann', playCount: i, location: 1 },
      { key: 'p2', jersey: '2', playerName: 'Bo', playCount: i * 2, location: 2 },
    ],
    snaps: [{ snapCount: 1, groupName: 'Offense', quarter: 1, p1: true }],
  };
}

async function run(kind: string): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-durability-'));
  let pgUrl = '';
  if (kind === 'postgres') {
    pgUrl = spawnSync('bash', ['scripts/pg.sh', 'start'], {
      cwd: root,
      encoding: 'utf8',
    }).stdout.trim();
  }
  // A fixed port, so clients find the restarted server where the old one was.
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const env = {
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'false',
    SIMULATE: 'false',
    LOG_LEVEL: 'error',
    RATE_LIMIT_FACTOR: '100000',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
  };
  let server = await start(env);
  const signIn = await fetch(`${server.base}/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
    body: JSON.stringify({ displayName: 'Durable Coach' }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const headers = { 'content-type': 'application/json', 'x-sagan-request': '1', cookie };

  const acknowledged = new Set<number>();
  let next = 0;
  let kills = 0;
  let failedWhileDown = 0;
  let killAt = 20 + Math.floor(Math.random() * 150);
  const started = Date.now();

  async function writeOne(i: number, base: string) {
    try {
      const res = await fetch(`${base}/playcounts/dur-${i}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify(gameBody(i)),
      });
      if (res.ok) acknowledged.add(i);
      else failedWhileDown++;
    } catch {
      failedWhileDown++; // the server died under it: not acknowledged, may or may not exist
    }
  }

  while (acknowledged.size < WRITES) {
    const batch: Promise<void>[] = [];
    for (let k = 0; k < IN_FLIGHT; k++) batch.push(writeOne(next++, server.base));
    if (next >= killAt) {
      // Kill at a random moment while writes are in flight.
      await new Promise((r) => setTimeout(r, Math.random() * 15));
      server.proc.kill('SIGKILL');
      await Promise.all(batch);
      await server.exited;
      kills++;
      killAt = next + 20 + Math.floor(Math.random() * 200);
      server = await start(env);
      continue;
    }
    await Promise.all(batch);
  }

  // Check after one more kill and restart.
  server.proc.kill('SIGKILL');
  await server.exited;
  server = await start(env);
  let missing = 0;
  let inconsistent = 0;
  for (const i of acknowledged) {
    const res = await fetch(`${server.base}/playcounts/dur-${i}`, { headers });
    if (res.status === 404) {
      missing++;
      continue;
    }
    const game = (await res.json()) as ReturnType<typeof gameBody>;
    const want = gameBody(i);
    if (
      game.gameName !== want.gameName ||
      JSON.stringify(game.roster.map((r) => r.playCount)) !== JSON.stringify([i, i * 2]) ||
      game.snaps.length !== 1
    ) {
      inconsistent++;
    }
  }
  const list = (await (await fetch(`${server.base}/playcounts`, { headers })).json()) as {
    games: { gameKey: string }[];
  };
  const listed = new Set(list.games.map((g) => g.gameKey));
  const unlisted = [...acknowledged].filter((i) => !listed.has(`dur-${i}`)).length;
  server.proc.kill('SIGTERM');
  await server.exited;
  if (pgUrl) spawnSync('bash', ['scripts/pg.sh', 'stop'], { cwd: root });
  fs.rmSync(dataDir, { recursive: true, force: true });

  const ok = missing === 0 && inconsistent === 0 && unlisted === 0;
  console.log(
    `durability ${kind}: ${acknowledged.size} acknowledged writes, ${kills + 1} SIGKILLs, ` +
      `${failedWhileDown} refused or cut off while down, ${missing} missing, ` +
      `${inconsistent} inconsistent, ${unlisted} absent from the list, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s: ${ok ? 'OK' : 'FAILED'}`,
  );
  return ok;
}

let allOk = true;
for (const kind of KINDS) allOk = (await run(kind)) && allOk;
process.exit(allOk ? 0 : 1);
