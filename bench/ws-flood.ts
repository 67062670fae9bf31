// bench/ws-flood: how much one anonymous WebSocket flooding the server with subscriptions slows
// everyone else. A probe client asks GET /api/games/recent in a loop, first on a quiet server,
// then while a flood socket subscribes to FLOOD made-up game keys (reconnecting and going on
// when the server closes it, as an attacker would). Runs this checkout with the limits as
// shipped (RATE_LIMIT_FACTOR 1) and an older commit (the baseline, before the realtime limits)
// in the same run, and prints the probe's figures and the ratios.
//
//   npm run bench:ws-flood                            # PGlite, baseline da70cfb, 15 s windows
//   npm run bench:ws-flood -- --db postgres --window 10 --flood 20000 --baseline-ref <commit>
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { signInLocal } from '../scripts/lib/local-sign-in.ts';
import {
  machine,
  percentile,
  reexecPinned,
  root,
  settledRssKb,
  sleep,
  startPostgres,
  startSagan,
  stopServers,
} from './lib/procs.ts';
import { API_PATH, WS_PATH } from '@sagan/shared/http';

const args = process.argv.slice(2);
const option = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1]!;
};
const FLOOD = Number(option('flood', '20000'));
const WINDOW_MS = Number(option('window', '15')) * 1000;
const DB = option('db', 'pglite');
const BASELINE_REF = option('baseline-ref', 'da70cfb');
const GAMES = 10;

interface ProbeFigures {
  requests: number;
  failed: number;
  p50: number;
  p99: number;
}

interface FloodFigures {
  sent: number;
  states: number;
  refused: number;
  sockets: number;
  closes: Record<string, number>;
}

interface Result {
  name: string;
  quiet: ProbeFigures;
  flooded: ProbeFigures;
  flood: FloodFigures;
  rssAfterMb: number;
}

/** Sequential GETs for windowMs, as one viewer's page would make them. */
async function probe(base: string, windowMs: number): Promise<ProbeFigures> {
  const times: number[] = [];
  let failed = 0;
  const end = performance.now() + windowMs;
  while (performance.now() < end) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}${API_PATH}/games/recent`);
      await res.arrayBuffer();
      if (res.ok) times.push(performance.now() - t0);
      else failed++;
    } catch {
      failed++;
    }
  }
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    failed,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
}

/**
 * Sockets one after another subscribe to made-up game keys as fast as they can write: with
 * perSocket = Infinity one socket sends all FLOOD subscribes (when the server closes it, the
 * next carries on, as an attacker would); with perSocket = n each socket stops at n and stays
 * open while the next one starts, which is how a flood that stays within the limits looks.
 */
function flood(wsUrl: string, perSocket = Infinity) {
  const figures: FloodFigures = { sent: 0, states: 0, refused: 0, sockets: 0, closes: {} };
  let stopped = false;
  const sockets: WebSocket[] = [];
  const next = () => {
    if (stopped || figures.sent >= FLOOD) return;
    const ws = new WebSocket(wsUrl);
    sockets.push(ws);
    const id = ++figures.sockets;
    ws.on('open', () => {
      let mine = 0;
      while (figures.sent < FLOOD && mine < perSocket && ws.readyState === ws.OPEN) {
        const topic = `game:flood${figures.sent.toString(36)}x${id}`;
        ws.send(JSON.stringify({ type: 'subscribe', topic }));
        figures.sent++;
        mine++;
      }
      if (mine === perSocket) setImmediate(next);
    });
    ws.on('message', (raw: Buffer) => {
      const type = /"type":"(\w+)"/.exec(raw.toString('utf8', 0, 40))?.[1];
      if (type === 'state') figures.states++;
      else if (type === 'error') figures.refused++;
    });
    ws.on('error', () => undefined);
    ws.on('close', (code) => {
      figures.closes[code] = (figures.closes[code] ?? 0) + 1;
      if (!stopped) setImmediate(next);
    });
  };
  next();
  return {
    figures,
    stop() {
      stopped = true;
      for (const ws of sockets) ws.terminate();
    },
  };
}

/** The baseline commit as a runnable checkout: its files, and this checkout's node_modules. */
function baselineCheckout(ref: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-bench-baseline-'));
  execSync(`git -C ${root} archive ${ref} | tar -x -C ${dir}`);
  // Every package is shared except our own workspaces, which must be the baseline's.
  fs.mkdirSync(path.join(dir, 'node_modules/@sagan'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '@sagan') continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  }
  for (const [name, target] of [
    ['server', 'apps/server'],
    ['shared', 'packages/shared'],
    ['web', 'apps/web'],
  ]) {
    fs.symlinkSync(path.join('../..', target!), path.join(dir, 'node_modules/@sagan', name!));
  }
  return dir;
}

async function run(name: string, cwd: string, perSocket = Infinity): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-bench-flood-'));
  const pg = DB === 'postgres' ? await startPostgres() : null;
  const server = await startSagan({
    dataDir,
    cwd,
    databaseUrl: pg?.url,
    env: { RATE_LIMIT_FACTOR: '1' },
  });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const keeper = await signInLocal(base, 'Flood keeper');
    for (let i = 0; i < GAMES; i++) {
      await keeper.call('POST', '/games', { gameName: `Game ${i}`, homeTeamName: 'Home' });
    }
    await probe(base, 1000); // warm-up
    const quiet = await probe(base, WINDOW_MS);
    const attack = flood(`ws://127.0.0.1:${server.port}${WS_PATH}`, perSocket);
    const flooded = await probe(base, WINDOW_MS);
    attack.stop();
    const rssAfterMb = Math.round((await settledRssKb(server.pid)) / 1024);
    return { name, quiet, flooded, flood: attack.figures, rssAfterMb };
  } finally {
    await stopServers([server]);
    pg?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  reexecPinned();
  const baselineDir = baselineCheckout(BASELINE_REF);
  const results: Result[] = [];
  try {
    results.push(await run(`baseline ${BASELINE_REF}`, baselineDir));
    await sleep(1000);
    results.push(await run('this checkout', root));
    await sleep(1000);
    // The most one address may do within the limits: many sockets, each at the topic cap.
    const perSocket = 200;
    results.push(await run(`this checkout, ${perSocket} topics per socket`, root, perSocket));
  } finally {
    fs.rmSync(baselineDir, { recursive: true, force: true });
  }

  const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '–');
  console.log(
    `\nWebSocket flood, ${machine()}; ${DB}, ${FLOOD} subscribes, ${WINDOW_MS / 1000} s windows`,
  );
  console.log('\n| server | phase | probe requests | p50 | p99 | failed |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const r of results) {
    for (const [phase, f] of [
      ['quiet', r.quiet],
      ['flood', r.flooded],
    ] as const) {
      console.log(
        `| ${r.name} | ${phase} | ${f.requests} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.failed} |`,
      );
    }
  }
  console.log('\n| server | flood sent | answered | refused | sockets | closes | RSS after |');
  console.log('|---|---:|---:|---:|---:|---|---:|');
  for (const r of results) {
    const closes = Object.entries(r.flood.closes)
      .map(([code, n]) => `${code}×${n}`)
      .join(', ');
    console.log(
      `| ${r.name} | ${r.flood.sent} | ${r.flood.states} | ${r.flood.refused} | ${r.flood.sockets} | ${closes || '–'} | ${r.rssAfterMb} MB |`,
    );
  }
  const [old, now] = results as [Result, Result];
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  console.log('\nUnder flood ÷ quiet (1× = the flood costs the probe nothing):');
  for (const r of results) {
    console.log(
      `  ${r.name}: requests ${ratio(r.flooded.requests, r.quiet.requests)}, p50 ${ratio(r.flooded.p50, r.quiet.p50)}, p99 ${ratio(r.flooded.p99, r.quiet.p99)}`,
    );
  }
  console.log('Baseline ÷ this checkout, under flood:');
  console.log(
    `  p50 ${ratio(old.flooded.p50, now.flooded.p50)}, p99 ${ratio(old.flooded.p99, now.flooded.p99)}, requests ${ratio(now.flooded.requests, old.flooded.requests)} as many here`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
