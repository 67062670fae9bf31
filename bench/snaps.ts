// bench/snaps: a big sideline play count (500 players) through the real API on PGlite. Prints
// the server time of a snap near snap 1, 250 and 500, the bytes of the `playcount:` frame each
// snap sends its viewer, and the median of an unrelated `GET /games/recent` while idle and
// while three snap writers (0.5 snaps/s each) count on the same count, past its 500th snap.
//
//   npm run bench:snaps                      # this checkout
//   npm run bench:snaps -- --baseline main   # the same, paired with main's server first
//   npm run bench:snaps -- --on-field 11     # snaps of 11 players instead of the whole roster
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { API_PATH, WS_PATH } from '@sagan/shared/http';
import { flag, option } from '../scripts/lib/cli-args.ts';
import { signInLocal } from '../scripts/lib/local-sign-in.ts';
import { baselineCheckout, type Build } from './lib/baseline.ts';
import {
  machine,
  percentile,
  reexecPinned,
  root,
  sleep,
  startSagan,
  stopServers,
} from './lib/procs.ts';

const BASELINE = option('baseline');
const PLAYERS = 500;
// Snaps of the whole roster by default: the size of the count that stalled the server (500
// players, ~450 snaps: a 6–7 MB document).
const ON_FIELD = Number(option('on-field') ?? 500);
const SNAPS = Number(option('snaps') ?? 500);
const WRITERS = 3;
const WRITER_RATE = 0.5;
const SECONDS = Number(option('seconds') ?? 20);
/** Snaps measured around each mark (the median is printed). */
const AROUND = 10;

interface Result {
  build: string;
  snapMs: Record<number, number>;
  frameBytes: Record<number, number>;
  idleMs: number;
  loadedMs: number;
  writes: number;
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

function roster() {
  return Array.from({ length: PLAYERS }, (_, i) => ({
    key: `player-${String(i).padStart(4, '0')}`,
    jersey: String(i + 1),
    playerName: `Player Number ${i + 1}`,
    playCount: 0,
    location: 2 as const,
  }));
}

function lineup(n: number): string[] {
  const start = (n * 7) % PLAYERS;
  return Array.from(
    { length: ON_FIELD },
    (_, i) => `player-${String((start + i) % PLAYERS).padStart(4, '0')}`,
  );
}

/** A count of PLAYERS players and no snaps, made as the phone app makes one (a PUT). */
const phoneGame = () => ({
  gameName: 'Big count',
  gameDate: '2026-11-21',
  roster: roster(),
  snaps: [],
});

async function timedGet(base: string, p: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${base}${API_PATH}${p}`);
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`GET ${p}: ${r.status}`);
  return performance.now() - t;
}

async function run(build: Build): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-bench-snaps-'));
  const server = await startSagan({ dataDir, cwd: build.cwd });
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const coach = await signInLocal(base, 'Coach');

    // The measured count, watched by one viewer (its owner's socket: the topic is private).
    await coach.call('PUT', '/playcounts/bench-big', phoneGame());
    const frames: number[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${WS_PATH}`, {
      headers: { cookie: coach.cookie },
    });
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    let first = true;
    let wake: (() => void) | null = null;
    ws.on('message', (raw: Buffer) => {
      if (first) {
        first = false;
      } else {
        frames.push(raw.length);
      }
      wake?.();
    });
    ws.send(JSON.stringify({ type: 'subscribe', topic: 'playcount:bench-big' }));
    await waitFor(
      () => !first,
      (w) => (wake = w),
    );

    const snapMs: Record<number, number> = {};
    const frameBytes: Record<number, number> = {};
    const marks = [1, Math.round(SNAPS / 2), SNAPS];
    const times: number[] = [];
    for (let n = 1; n <= SNAPS; n++) {
      const before = frames.length;
      const t = performance.now();
      await coach.call('POST', '/playcounts/bench-big/snaps', {
        quarter: 1,
        groupName: '',
        players: lineup(n),
      });
      times.push(performance.now() - t);
      await waitFor(
        () => frames.length > before,
        (w) => (wake = w),
      );
    }
    for (const m of marks) {
      const from = Math.max(0, Math.min(m - 1, SNAPS - AROUND));
      snapMs[m] = median(times.slice(from, from + AROUND));
      frameBytes[m] = median(frames.slice(from, from + AROUND));
    }
    ws.close();

    // The writers are three phones counting the same big count, now at SNAPS snaps.
    console.log(
      `  snap ${marks.join('/')}: ${JSON.stringify(snapMs)} ms, ${JSON.stringify(frameBytes)} B`,
    );
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await timedGet(base, '/games/recent'));

    let writes = 0;
    let stop = false;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      // Staggered, so the three writers' snaps spread over each interval.
      await sleep((w * 1000) / (WRITER_RATE * WRITERS));
      let n = SNAPS + w * 1000;
      while (!stop) {
        const t = performance.now();
        await coach.call('POST', '/playcounts/bench-big/snaps', {
          quarter: 4,
          groupName: '',
          players: lineup(++n),
        });
        writes++;
        await sleep(Math.max(0, 1000 / WRITER_RATE - (performance.now() - t)));
      }
    });
    const loaded: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    while (performance.now() < until) {
      loaded.push(await timedGet(base, '/games/recent'));
      await sleep(100);
    }
    stop = true;
    await Promise.all(writers);
    return {
      build: build.name,
      snapMs,
      frameBytes,
      idleMs: median(idle),
      loadedMs: median(loaded),
      writes,
    };
  } finally {
    await stopServers([server]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function waitFor(done: () => boolean, setWake: (w: (() => void) | null) => void): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!done()) return;
      setWake(null);
      resolve();
    };
    setWake(check);
    check();
  });
}

function table(results: Result[]): string {
  const marks = Object.keys(results[0]!.snapMs).map(Number);
  const lines = [
    `| build | ${marks.map((m) => `snap ${m} (ms)`).join(' | ')} | ${marks
      .map((m) => `frame at ${m} (bytes)`)
      .join(' | ')} | /games/recent idle (ms) | with ${WRITERS} writers (ms) | ratio |`,
    `|${'---|'.repeat(1 + marks.length * 2 + 3)}`,
  ];
  for (const r of results) {
    lines.push(
      `| ${r.build} | ${marks.map((m) => r.snapMs[m]!.toFixed(1)).join(' | ')} | ${marks
        .map((m) => String(Math.round(r.frameBytes[m]!)))
        .join(' | ')} | ${r.idleMs.toFixed(1)} | ${r.loadedMs.toFixed(1)} | ${(
        r.loadedMs / r.idleMs
      ).toFixed(2)}× |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  reexecPinned();
  console.log(`bench:snaps on ${machine()}: ${PLAYERS} players, ${ON_FIELD} per snap, PGlite`);
  const builds: Build[] = [];
  let removeBaseline: (() => void) | undefined;
  if (BASELINE) {
    const b = baselineCheckout(BASELINE);
    builds.push(b.build);
    removeBaseline = b.remove;
  }
  if (!flag('baseline-only')) builds.push({ name: 'this checkout', cwd: root });
  const results: Result[] = [];
  try {
    for (const build of builds) {
      console.log(`running ${build.name}…`);
      results.push(await run(build));
    }
  } finally {
    if (!flag('keep-baseline')) removeBaseline?.();
  }
  console.log(table(results));
}

await main();
