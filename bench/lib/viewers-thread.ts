// The viewers of bench:saturday, in a worker thread of their own. With the writers in the same
// thread, every frame the viewers took in delayed the writers' answers: the load generator's
// loop stalled for up to 412 ms at 100 writes/s, and a stall read as slow writes of whichever
// system it fell on. Apart, the writers' loop only sends and times writes; the operating system
// shares the core between the two threads in slices far shorter than such a stall.
//
// What the threads share, without messages (a frame may arrive before any message would):
// - when each score's write was sent, per game, in a ring the writers fill (sentAt below);
// - each game viewer's last score, read by the writers' side to count lost updates;
// - whether the writers' side is recording.
// Both threads read the same monotonic clock (monotonicMs).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { scoreOf } from './frames.ts';

/** Milliseconds of a clock every thread of the process reads alike. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** How many recent scores of a game keep their send time: far more than are ever in flight. */
const RING = 1024;

interface Shared {
  /** When score s of game g was sent: at [g * RING + s % RING], with s itself in sentScore. */
  sentAt: Float64Array;
  sentScore: Int32Array;
  /** Each game viewer's last score (-1 before its first). */
  last: Int32Array;
  /** 1 while the writers' side records. */
  recording: Int32Array;
}

interface Spec {
  wsUrl: string;
  gameKeys: string[];
  viewersPerGame: number;
  home: number;
  /** Home-page viewers that decode their frames to time staleness (the rest only count them). */
  stalenessSample: number;
  batch: number;
  shared: Shared;
}

/** What the viewers saw while recording, since the last collection. */
interface Seen {
  deliveries: number[];
  staleness: number[];
  homeFrames: number;
}

/** Send time of score s of game g, or undefined when the ring holds no such write. */
function sentAtOf(shared: Shared, g: number, s: number): number | undefined {
  const i = g * RING + (s % RING);
  return shared.sentScore[i] === s ? shared.sentAt[i] : undefined;
}

/** The writers' side of the viewers: each system's viewers in a thread of their own. */
export interface Viewers {
  last: Int32Array;
  gameOf: Int32Array;
  /** Notes when the write of score s of game g is sent (the writers' side calls it). */
  sent(g: number, s: number, at: number): void;
  record(on: boolean): void;
  /** What was seen while recording since the last call. */
  collect(): Promise<Seen>;
  close(): Promise<void>;
}

export async function startViewers(opts: Omit<Spec, 'shared'>): Promise<Viewers> {
  const games = opts.gameKeys.length;
  const n = games * opts.viewersPerGame;
  const shared: Shared = {
    sentAt: new Float64Array(new SharedArrayBuffer(games * RING * 8)),
    sentScore: new Int32Array(new SharedArrayBuffer(games * RING * 4)).fill(-1),
    last: new Int32Array(new SharedArrayBuffer(n * 4)).fill(-1),
    recording: new Int32Array(new SharedArrayBuffer(4)),
  };
  const gameOf = new Int32Array(n);
  for (let v = 0; v < n; v++) gameOf[v] = v % games;
  // The worker runs this file through tsx, as the benchmark itself runs.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const self = import.meta.url;
  const worker = new Worker(
    `import(${JSON.stringify(tsx.replace(/\.cjs$/, '.mjs'))}).then(({ tsImport }) => tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)}));`,
    { eval: true, workerData: { ...opts, shared } satisfies Spec },
  );
  const replies: Array<(v: unknown) => void> = [];
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the viewers' thread exited (${code})`)));
  });
  failed.catch(() => {});
  worker.on('message', (m: unknown) => replies.shift()?.(m));
  const ask = <T>(msg: unknown): Promise<T> => {
    const answer = new Promise<T>((resolve) => replies.push(resolve as (v: unknown) => void));
    worker.postMessage(msg);
    return Promise.race([answer, failed]);
  };
  await ask({ type: 'connect' });
  return {
    last: shared.last,
    gameOf,
    sent(g, s, at) {
      const i = g * RING + (s % RING);
      shared.sentAt[i] = at;
      Atomics.store(shared.sentScore, i, s);
    },
    record(on) {
      Atomics.store(shared.recording, 0, on ? 1 : 0);
    },
    collect: () => ask<Seen>({ type: 'collect' }),
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}

/** The worker's side: connects the viewers, then answers collect. */
async function viewerThread(spec: Spec, port: NonNullable<typeof parentPort>): Promise<void> {
  const { shared, gameKeys } = spec;
  const games = gameKeys.length;
  const recording = () => Atomics.load(shared.recording, 0) === 1;
  let seen: Seen = { deliveries: [], staleness: [], homeFrames: 0 };
  const keyIndex = new Map(gameKeys.map((k, i) => [k, i]));
  const connect = (topics: string[], onFrame: (data: Buffer) => void) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(spec.wsUrl, { perMessageDeflate: false });
      ws.on('open', () => {
        for (const topic of topics) ws.send(JSON.stringify({ type: 'subscribe', topic }));
        resolve(ws);
      });
      ws.on('message', (data: Buffer) => onFrame(data));
      ws.on('error', reject);
    });
  const specs: Array<() => Promise<WebSocket>> = [];
  for (let v = 0; v < games * spec.viewersPerGame; v++) {
    const g = v % games;
    specs.push(() =>
      connect([`game:${gameKeys[g]}`], (data) => {
        const score = scoreOf(data);
        if (score < 0) return;
        shared.last[v] = score;
        if (!recording()) return;
        const at = sentAtOf(shared, g, score);
        if (at !== undefined) seen.deliveries.push(monotonicMs() - at);
      }),
    );
  }
  for (let h = 0; h < spec.home; h++) {
    const shown = new Int32Array(games).fill(-1);
    /** When this viewer last got a list without the game (its writes until then were outranked). */
    const absentAt = new Float64Array(games);
    const decode = h < spec.stalenessSample;
    specs.push(() =>
      connect(['games:recent', 'tags'], (data) => {
        if (recording()) seen.homeFrames++;
        // A few viewers decode every frame, recording or not, so they always know what
        // they have been shown.
        if (!decode) return;
        const msg = JSON.parse(data.toString()) as { topic?: string; data?: unknown };
        if (msg.topic !== 'games:recent' || !Array.isArray(msg.data)) return;
        const now = monotonicMs();
        const listed = new Set<number>();
        for (const entry of msg.data as Array<{ gameKey: string; homeScore: number }>) {
          const g = keyIndex.get(entry.gameKey);
          if (g === undefined) continue;
          listed.add(g);
          // The list holds the 10 most recently changed games: a write whose game was outranked
          // by newer writes when a list came is rightly never shown, so only writes sent since
          // the last list without their game count.
          for (let s = Math.max(shown[g]!, 0) + 1; s <= entry.homeScore; s++) {
            const at = sentAtOf(shared, g, s);
            if (at !== undefined && at > absentAt[g]! && recording()) {
              seen.staleness.push(now - at);
            }
          }
          shown[g] = Math.max(shown[g]!, entry.homeScore);
        }
        for (let g = 0; g < games; g++) if (!listed.has(g)) absentAt[g] = now;
      }),
    );
  }
  port.on('message', async (msg: { type: string }) => {
    if (msg.type === 'connect') {
      for (let i = 0; i < specs.length; i += spec.batch) {
        // The sockets live as long as the thread: terminating it closes them.
        await Promise.all(specs.slice(i, i + spec.batch).map((s) => s()));
      }
      await new Promise((r) => setTimeout(r, 1500)); // initial states drain
      port.postMessage('connected');
    } else if (msg.type === 'collect') {
      port.postMessage(seen);
      seen = { deliveries: [], staleness: [], homeFrames: 0 };
    }
  });
}

if (!isMainThread && parentPort && (workerData as Partial<Spec> | null)?.shared) {
  await viewerThread(workerData as Spec, parentPort);
}
