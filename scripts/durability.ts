// Durability under SIGKILL: performs acknowledged writes against the real server while
// killing it with SIGKILL at random moments and restarting it, then checks that every write the
// server acknowledged is there, exactly as sent. Beside the play counts, each batch appends one
// tap to a game's event log (DESIGN §10): every acknowledged tap must answer its replay with its
// first answer, and once every tap sent has been replayed the score counts each exactly once.
//
//   node --import tsx scripts/durability.ts [--writes 1000] [--db pglite|postgres|both]
//
// PostgreSQL: with TEST_DATABASE_URL (or --pg-url) set, a fresh database is created in that
// cluster and dropped afterwards; otherwise the script starts a private throwaway cluster. It
// never uses scripts/pg.sh, whose `start` stops the cluster other test runs share.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './lib/net.ts';
import { freshDatabase, startPostgres } from './lib/postgres.ts';
import { startSaganServer } from './lib/server.ts';
import { signInLocal } from './lib/local-sign-in.ts';
import { API_PATH } from '@sagan/shared/http';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? dflt : args[i + 1]!;
};
const WRITES = Number(opt('writes', '1000'));
const KINDS = opt('db', 'both') === 'both' ? ['pglite', 'postgres'] : [opt('db', 'pglite')];
const IN_FLIGHT = 4;
const ADMIN_URL = opt('pg-url', process.env.TEST_DATABASE_URL ?? '');

/** A fresh database for one run; drop() removes it (and a private cluster). */
async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const cluster = ADMIN_URL ? null : await startPostgres();
  const database = await freshDatabase(ADMIN_URL || cluster!.url, 'sagan_dur');
  return {
    url: database.url,
    async drop() {
      await database.drop();
      cluster?.stop();
    },
  };
}

async function start(env: Record<string, string>) {
  const server = await startSaganServer(env);
  return { ...server, base: `http://127.0.0.1:${server.port}${API_PATH}` };
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

function consistent(game: ReturnType<typeof gameBody>, i: number): boolean {
  const want = gameBody(i);
  return (
    game.gameName === want.gameName &&
    game.gameDate === want.gameDate &&
    JSON.stringify(game.roster.map((r) => [r.key, r.playCount, r.location])) ===
      JSON.stringify(want.roster.map((r) => [r.key, r.playCount, r.location])) &&
    game.snaps.length === 1 &&
    (game.snaps[0] as Record<string, unknown>).p1 === true
  );
}

async function run(kind: string): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-durability-'));
  const database = kind === 'postgres' ? await freshPostgres() : null;
  const pgUrl = database?.url ?? '';
  // A fixed port, so clients find the restarted server where the old one was.
  const port = String(await freePort());
  const env = {
    PORT: port,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    RATE_LIMIT_FACTOR: '100000',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
  };
  let server = await start(env);
  const coach = await signInLocal(`http://127.0.0.1:${server.port}`, 'Durable Coach');
  // The writes below go out raw: a refusal or a cut-off connection is counted, not thrown.
  const headers = {
    'content-type': 'application/json',
    'x-sagan-request': '1',
    cookie: coach.cookie,
  };
  const { gameKey } = await coach.call<{ gameKey: string }>('POST', '/games', {
    gameName: 'Durable game',
  });
  /** Taps sent, by key; the first answer of those acknowledged. */
  const taps = new Map<string, string | null>();
  const tap = (base: string, key: string) =>
    fetch(`${base}/games/${gameKey}/events`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': key },
      body: JSON.stringify({ action: { kind: 'score', team: 'home', by: 1 }, device: 'dur' }),
    });
  async function tapOne(i: number, base: string) {
    const key = `tap-${i}`;
    taps.set(key, null);
    try {
      const res = await tap(base, key);
      if (res.ok) taps.set(key, await res.text());
    } catch {
      // Cut off by the kill: not acknowledged; its replay below applies it if it was lost.
    }
  }

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
    batch.push(tapOne(next, server.base));
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
    if (!consistent(game, i)) inconsistent++;
  }
  const list = (await (await fetch(`${server.base}/playcounts`, { headers })).json()) as {
    games: { gameKey: string }[];
  };
  const listed = new Set(list.games.map((g) => g.gameKey));
  const unlisted = [...acknowledged].filter((i) => !listed.has(`dur-${i}`)).length;
  // A write cut off by a kill may or may not have landed, but never half: every stored game,
  // acknowledged or not, must be exactly one of the bodies we sent.
  let torn = 0;
  for (const key of listed) {
    const i = Number(key.slice('dur-'.length));
    if (acknowledged.has(i)) continue;
    const res = await fetch(`${server.base}/playcounts/${key}`, { headers });
    const game = (await res.json()) as ReturnType<typeof gameBody>;
    if (!consistent(game, i)) torn++;
  }
  // Every acknowledged tap is in the log: its replay is answered with its first answer.
  let lostTaps = 0;
  for (const [key, first] of taps) {
    if (first === null) continue;
    const again = await tap(server.base, key);
    if (!again.ok || (await again.text()) !== first) lostTaps++;
  }
  // The others may or may not have landed: replayed, each now counts exactly once.
  for (const [key, first] of taps) if (first === null) await tap(server.base, key);
  const board = (await (await fetch(`${server.base}/games/${gameKey}`)).json()) as {
    top: { homeScore: number };
  };
  const tapsAcked = [...taps.values()].filter((a) => a !== null).length;
  const tapsCounted = board.top.homeScore === taps.size;
  // The server must also still take writes after all that.
  const after = await fetch(`${server.base}/playcounts/dur-after`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(gameBody(0)),
  });
  server.proc.kill('SIGTERM');
  await server.exited;
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const ok =
    missing === 0 &&
    inconsistent === 0 &&
    unlisted === 0 &&
    torn === 0 &&
    lostTaps === 0 &&
    tapsCounted &&
    after.status === 201;
  console.log(
    `durability ${kind}: ${acknowledged.size} acknowledged writes, ${kills + 1} SIGKILLs, ` +
      `${failedWhileDown} refused or cut off while down, ${missing} missing, ` +
      `${inconsistent} inconsistent, ${unlisted} absent from the list, ` +
      `${listed.size - acknowledged.size} unacknowledged but stored (${torn} torn), ` +
      `${tapsAcked} acknowledged taps (${lostTaps} lost, score ${board.top.homeScore} for ` +
      `${taps.size} sent), ${((Date.now() - started) / 1000).toFixed(0)} s: ${ok ? 'OK' : 'FAILED'}`,
  );
  return ok;
}

let allOk = true;
for (const kind of KINDS) allOk = (await run(kind)) && allOk;
process.exit(allOk ? 0 : 1);
