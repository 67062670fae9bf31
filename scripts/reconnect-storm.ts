// Reconnect storm: N viewers watch one game on the real server; the server is
// restarted (SIGTERM, then started again on the same port and data); every viewer reconnects
// with the web client's jittered exponential backoff (apps/web/src/lib/realtime.ts) and resumes
// from the last sequence number it saw. Reports how many came back, how long it took, the
// server's peak RSS, and whether every viewer ends on the final state.
//
//   node --import tsx scripts/reconnect-storm.ts [--viewers 10000] [--db pglite|postgres]
//
// Outside the test command (it takes about a minute and most of a small machine); its figures
// are in docs/reliability.md. PostgreSQL needs TEST_DATABASE_URL (a fresh database is created
// in that cluster and dropped afterwards).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { Reconnects } from '@sagan/shared/backoff';
import { freePort } from './lib/net.ts';
import { freshDatabase } from './lib/postgres.ts';
import { startSaganServer } from './lib/server.ts';
import { API_PATH, WS_PATH } from '@sagan/shared/http';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1]!;
};
const VIEWERS = Number(opt('viewers', '10000'));
const DB = opt('db', 'pglite');
// Loopback source addresses to spread the sockets over (ephemeral ports per address).
const SOURCES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface StormServer {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Highest VmHWM (peak resident set) read from /proc while it ran, in MB. */
  peakRssMb: () => number;
  /** Its resident set now, in MB. */
  rssMb: () => number;
}

async function startServer(port: number, env: Record<string, string>): Promise<StormServer> {
  const { proc: child, exited } = await startSaganServer({
    PORT: String(port),
    // Thousands of viewers from four loopback addresses: far more than the per-address
    // socket limit leaves a real venue.
    RATE_LIMIT_FACTOR: '100000',
    ...env,
  });
  let peak = 0;
  let rss = 0;
  const sampler = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      // exited
    }
  }, 100);
  void exited.then(() => clearInterval(sampler));
  return { child, exited, peakRssMb: () => Math.round(peak), rssMb: () => Math.round(rss) };
}

/** One viewer, reconnecting exactly as the web client does. */
class Viewer {
  ws: WebSocket | null = null;
  readonly reconnects = new Reconnects(() => this.connect());
  seq: number | undefined;
  data: unknown;
  /** When it last had the topic's state in hand after (re)connecting. */
  syncedAt = 0;
  synced = false;
  failures = 0;
  /** States received (state messages), and any seq seen twice or going backwards. */
  states = 0;
  regressions = 0;

  constructor(
    readonly url: string,
    readonly topic: string,
    readonly source: string,
  ) {}

  connect(): void {
    if (this.ws || this.reconnects.holding) return;
    const ws = new WebSocket(this.url, { localAddress: this.source });
    this.ws = ws;
    this.synced = false;
    ws.on('open', () => {
      this.reconnects.reset();
      ws.send(
        JSON.stringify({
          type: 'subscribe',
          topic: this.topic,
          ...(this.seq !== undefined ? { sinceSeq: this.seq } : {}),
        }),
      );
    });
    ws.on('message', (raw) => this.onMessage(String(raw)));
    ws.on('error', () => {
      this.failures++;
    });
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.synced = false;
      this.reconnects.schedule();
    });
  }

  private onMessage(raw: string): void {
    const msg = JSON.parse(raw) as {
      type: string;
      topic?: string;
      seq?: number;
      data?: unknown;
      afterMs?: number;
    };
    if (msg.type === 'state' && msg.topic === this.topic) {
      if (this.seq !== undefined && msg.seq! <= this.seq) this.regressions++;
      this.seq = msg.seq;
      this.data = msg.data;
      this.states++;
      this.markSynced();
    } else if (msg.type === 'current' && msg.topic === this.topic) {
      this.markSynced();
    } else if (msg.type === 'reconnect') {
      const ws = this.ws;
      this.ws = null;
      ws?.close();
      this.reconnects.scheduleAsked(msg.afterMs!);
    }
  }

  private markSynced(): void {
    if (!this.synced) this.syncedAt = Date.now();
    this.synced = true;
  }

  /** The game topic's state is { top: scoreboard, comments, tags }. */
  get homeScore(): number | undefined {
    return (this.data as { top?: { homeScore?: number } } | undefined)?.top?.homeScore;
  }

  stop(): void {
    this.reconnects.stop();
    this.ws?.terminate();
  }
}

async function api(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  cookie?: string,
): Promise<Response> {
  const res = await fetch(`${base}${API_PATH}${url}`, {
    method,
    headers: {
      'x-sagan-request': '1',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

async function main(): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-storm-'));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let dropDb = async () => undefined as void;
  if (DB === 'postgres') {
    const admin = process.env.TEST_DATABASE_URL;
    if (!admin) throw new Error('--db postgres needs TEST_DATABASE_URL');
    const database = await freshDatabase(admin, 'sagan_storm');
    env.DATABASE_URL = database.url;
    dropDb = database.drop;
  }

  let server = await startServer(port, env);
  const viewers: Viewer[] = [];
  try {
    const signIn = await api(base, 'POST', '/auth/local', { displayName: 'Storm keeper' });
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const { gameKey } = (await (
      await api(base, 'POST', '/games', { gameName: 'Storm', homeTeamName: 'Home' }, cookie)
    ).json()) as { gameKey: string };
    const setScore = (homeScore: number) =>
      api(base, 'PATCH', `/games/${gameKey}`, { homeScore }, cookie);
    const topic = `game:${gameKey}`;
    const wsUrl = `ws://127.0.0.1:${port}${WS_PATH}`;

    console.log(`connecting ${VIEWERS} viewers to ${topic} (${DB})…`);
    const t0 = Date.now();
    for (let i = 0; i < VIEWERS; i++) {
      const v = new Viewer(wsUrl, topic, SOURCES[i % SOURCES.length]!);
      viewers.push(v);
      v.connect();
      if (i % 250 === 249) await sleep(50); // a crowd arriving, not one packet
    }
    await until(() => viewers.every((v) => v.synced), 120_000, 'all viewers to connect');
    console.log(`all connected in ${Date.now() - t0} ms`);
    await setScore(1);
    await until(
      () => viewers.every((v) => v.homeScore === 1),
      60_000,
      'the first update to reach everyone',
    );
    const seqBefore = viewers[0]!.seq!;
    const firstPeak = server.peakRssMb();

    // The restart: SIGTERM (viewers get the reconnect hint), start again on the same port.
    const stopAt = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    const downAt = Date.now();
    if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM`);
    server = await startServer(port, env);
    const upAt = Date.now();
    console.log(`stopped in ${downAt - stopAt} ms, started again in ${upAt - downAt} ms`);

    // A change while the crowd is still coming back: resumers must get it, not miss it.
    await setScore(2);
    await until(
      () => viewers.every((v) => v.synced && v.syncedAt >= downAt),
      180_000,
      'all viewers to come back',
    ).catch((err: Error) => console.error(err.message));
    const back = viewers.filter((v) => v.synced && v.syncedAt >= downAt);
    const allBackAt = Math.max(...back.map((v) => v.syncedAt));
    const backTimes = back.map((v) => v.syncedAt - upAt);

    await setScore(3);
    const finalSeq = seqBefore + 2;
    await until(
      () => viewers.every((v) => v.seq === finalSeq),
      60_000,
      'the final state to reach everyone',
    ).catch((err: Error) => console.error(err.message));
    const onFinal = viewers.filter((v) => v.seq === finalSeq && v.homeScore === 3).length;
    const regressions = viewers.reduce((n, v) => n + v.regressions, 0);
    const failures = viewers.reduce((n, v) => n + v.failures, 0);

    const report = {
      database: DB,
      viewers: VIEWERS,
      cameBack: back.length,
      shutdownMs: downAt - stopAt,
      restartMs: upAt - downAt,
      allBackAfterRestartMs: allBackAt - upAt,
      allBackAfterSigtermMs: allBackAt - stopAt,
      backP50Ms: pct(backTimes, 50),
      backP95Ms: pct(backTimes, 95),
      failedAttempts: failures,
      peakRssMbBefore: firstPeak,
      peakRssMbAfterRestart: server.peakRssMb(),
      rssMbAtEnd: server.rssMb(),
      onFinalState: onFinal,
      seqRegressions: regressions,
    };
    console.log(JSON.stringify(report, null, 2));
    const ok = back.length === VIEWERS && onFinal === VIEWERS && regressions === 0;
    console.log(ok ? 'OK: every viewer came back and holds the final state' : 'FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const v of viewers) v.stop();
    server.child.kill('SIGTERM');
    await server.exited;
    await dropDb();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
