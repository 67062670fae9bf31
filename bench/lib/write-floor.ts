// The write floor of bench/write-cpu.ts, in a process of its own: a score write's own
// statements, the server's very SQL texts, on PGlite started as the server starts it, on games a
// server made in this data folder, with no server. The bench pins it to the servers' core and
// reads its CPU from /proc around each turn; a message `n` runs n writes, one at a time (PGlite
// runs one transaction at a time anyway), and is answered with their latencies.
//   node --import tsx bench/lib/write-floor.ts <PGlite folder> <game keys, JSON>
import { performance } from 'node:perf_hooks';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameHistoryTopic } from '@sagan/shared/topics/game-history';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { pgliteStatements } from '../../apps/server/src/db/pglite-prepared.ts';
import { startPglite } from '../../apps/server/src/db/pglite-start.ts';
import { APPEND_GAME_EVENT_SQL, LOCK_GAME_SQL } from '../../apps/server/src/lib/game-write.ts';
import { BUMP_SEQS_SQL } from '../../apps/server/src/realtime/hub.ts';

const [dataDir, keysJson] = process.argv.slice(2);
if (!dataDir || !keysJson || !process.send) {
  throw new Error('usage: write-floor.ts <PGlite folder> <game keys, JSON>, with an IPC channel');
}
const keys = JSON.parse(keysJson) as string[];
const pglite = startPglite({ dataDir, sharedBuffers: '16MB' });
await pglite.waitReady;
const statements = pgliteStatements(pglite);
let events = 0;
const write = async (gameKey: string) => {
  const eventId = `floor-${++events}`;
  await pglite.transaction(async (t) => {
    const [row] = await statements.txQuery<{
      uid: string;
      fields: Record<string, unknown>;
      time_stamp: number | string;
    }>(t, LOCK_GAME_SQL, [gameKey, eventId]);
    if (!row) throw new Error(`no game ${gameKey}`);
    const from = Number(row.fields.homeScore ?? 0);
    const fields: Record<string, unknown> = { ...row.fields, homeScore: from + 1 };
    const timeStamp = Math.max(Date.now(), Number(row.time_stamp) + 1);
    const topic = gameTopic.name(gameKey);
    // The topics the route names, less those the hub coalesces (bumped after commit).
    const topics = [
      [gameTopic, topic],
      [recentGamesTopic, recentGamesTopic.name()],
      [myGamesTopic, myGamesTopic.name(row.uid)],
      [gameHistoryTopic, gameHistoryTopic.name(gameKey)],
      [gameDetailTopic, gameDetailTopic.name(gameKey)],
    ] as const;
    const bumped = topics.flatMap(([def, name]) => (def.coalesce ? [] : [name])).sort();
    const bumps = await statements.txQuery<{ topic: string; seq: number }>(t, BUMP_SEQS_SQL, [
      bumped,
    ]);
    const seq = Number(bumps.find((b) => b.topic === topic)!.seq);
    const changes = { homeScore: { from, to: from + 1 } };
    await statements.txQuery(t, APPEND_GAME_EVENT_SQL, [
      gameKey,
      eventId,
      row.uid,
      null,
      null,
      seq,
      fields.gamePeriod ?? null,
      Date.now(),
      JSON.stringify({ kind: 'set', values: { homeScore: from + 1 } }),
      JSON.stringify(changes),
      null,
      JSON.stringify({ eventId, seq, timeStamp, changes }),
      JSON.stringify(fields),
      timeStamp,
      JSON.stringify({ homeScore: seq }),
      false,
    ]);
  });
};
let done = 0;
process.on('message', (count: number) => {
  void (async () => {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const sent = performance.now();
      await write(keys[done++ % keys.length]!);
      latencies.push(performance.now() - sent);
    }
    process.send!(latencies);
  })();
});
process.on('disconnect', () => {
  void pglite.close().then(() => process.exit(0));
});
process.send('ready');
