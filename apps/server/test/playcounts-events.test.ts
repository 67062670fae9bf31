import { afterAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import { playCountGameSchema, type PlayCountGame } from '@sagan/shared/playcount';
import { sharedPlayCountSchema } from '@sagan/shared/playcount-sideline';
import { foldPlayCount, type PlayCountEvent } from '@sagan/shared/playcount-events';
import { anonymous, API, databaseKinds, useTestApp } from './helpers.ts';
import { call, type Method, newGameKey, ok, sampleGame } from './playcounts-fixtures.ts';
import { randomKey } from './security-world.ts';
import { isState, TestSocket } from './ws-client.ts';

type Delta = Extract<ServerMessage, { type: 'delta' }>;

// A play count as a log of events (DESIGN §10): a snap is one event row, undo voids, the phone's
// PUT is its difference, topics send deltas, a count can be finished, privacy is a snapshot.
describe.each(databaseKinds())('play-count event log ($name)', (kind) => {
  const t = useTestApp(kind, { users: ['Coach'], listen: true });
  const sockets: TestSocket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  const coach = (method: Method, url: string, payload?: object, key?: string) =>
    call(t.users.Coach, method, url, payload, key);
  const read = async (gameKey: string) =>
    playCountGameSchema.parse(await ok(coach('GET', `/playcounts/${gameKey}`)));
  const snap = (gameKey: string, players: string[], key?: string) =>
    coach('POST', `/playcounts/${gameKey}/snaps`, { quarter: 1, groupName: 'O', players }, key);
  const undo = (gameKey: string, key?: string) =>
    coach('DELETE', `/playcounts/${gameKey}/snaps/last`, undefined, key);

  const events = async (gameKey: string) =>
    t.db.query<{
      event_id: string;
      uid: string;
      device: string | null;
      body: PlayCountEvent['body'];
      voided_by: string | null;
      bytes: number;
    }>(
      `SELECT event_id, uid, device, body, voided_by, octet_length(body::text) AS bytes
         FROM playcount_events WHERE game_key = $1 ORDER BY id`,
      [gameKey],
    );
  const stored = async (gameKey: string) =>
    (
      await t.db.query<{ game: Record<string, unknown>; bytes: number }>(
        'SELECT game, octet_length(game::text) AS bytes FROM play_count_games WHERE game_key = $1',
        [gameKey],
      )
    )[0]!;
  const fold = async (gameKey: string) =>
    foldPlayCount(
      (await events(gameKey)).map((e) => ({
        eventId: e.event_id,
        body: e.body,
        voidedBy: e.voided_by,
      })),
    );
  const counts = (g: Pick<PlayCountGame, 'roster'>) =>
    g.roster.map((p) => [p.key, p.playCount, p.location]);

  /** A sheet of Coach's with `n` players and a count of it; answers the keys in count order. */
  async function countOf(n: number, privacy?: { initialsOnly: boolean; hidePhotos: boolean }) {
    const { teamKey } = await ok<{ teamKey: string }>(coach('POST', '/teams'));
    const lines = Array.from({ length: n }, (_, i) => `${i + 1} Player Number${i + 1} Brontëson`);
    await ok(coach('POST', `/teams/${teamKey}/players/bulk`, { text: lines.join('\n') }));
    if (privacy) await ok(coach('PUT', `/teams/${teamKey}/privacy`, privacy));
    const { gameKey } = await ok<{ gameKey: string }>(
      coach('POST', '/playcounts', { teamKey, gameName: 'Eagles', gameDate: '2026-09-05' }),
    );
    const game = await read(gameKey);
    return { teamKey, gameKey, keys: game.roster.map((p) => p.key) };
  }

  async function watch(topic: string, cookie?: string) {
    const socket = await TestSocket.open(t.wsUrl, cookie ? { cookie } : {});
    sockets.push(socket);
    socket.send({ type: 'subscribe', topic });
    await socket.waitFor(isState(topic));
    return socket;
  }
  const nextDelta = (socket: TestSocket, topic: string, from: number) =>
    socket.waitFor((m): m is Delta => m.type === 'delta' && m.topic === topic, from);

  it('a snap is one event row; the row keeps counts, not snaps; the log folds to the row', async () => {
    const { gameKey, keys } = await countOf(3);
    const key = randomKey();
    await ok(snap(gameKey, [keys[0]!, keys[1]!], key));
    await ok(snap(gameKey, [keys[1]!]));
    const log = await events(gameKey);
    expect(log.map((e) => e.body.kind)).toEqual(['baseline', 'snap', 'snap']);
    expect(log[1]).toMatchObject({ event_id: key, uid: t.users.Coach.uid, device: 'web' });
    // The event id is the Idempotency-Key: a retry is the same event, not a second snap.
    await ok(snap(gameKey, [keys[0]!, keys[1]!], key));
    expect(await events(gameKey)).toHaveLength(3);
    const row = await stored(gameKey);
    expect(row.game).not.toHaveProperty('snaps');
    const game = await read(gameKey);
    expect(game.snaps.map((s) => s.snapCount)).toEqual([1, 2]);
    expect(counts(game)).toEqual([
      [keys[0], 1, 2],
      [keys[1], 2, 1],
      [keys[2], 0, 2],
    ]);
    const folded = await fold(gameKey);
    expect(counts(folded)).toEqual(counts(game));
    expect(folded.snaps).toEqual(game.snaps);
  });

  it('undo voids the last snap (nothing deleted), and nobody stays On Field for a snap that is gone', async () => {
    const { gameKey, keys } = await countOf(3);
    await ok(snap(gameKey, [keys[0]!]));
    await ok(snap(gameKey, [keys[1]!, keys[2]!]));
    expect(await ok(undo(gameKey))).toEqual({ snapCount: 2, snaps: 1 });
    let game = await read(gameKey);
    // The field is again the first snap's: the undone snap's players are on the sideline.
    expect(counts(game)).toEqual([
      [keys[0], 1, 1],
      [keys[1], 0, 2],
      [keys[2], 0, 2],
    ]);
    expect(await ok(undo(gameKey))).toEqual({ snapCount: 1, snaps: 0 });
    game = await read(gameKey);
    expect(game.snaps).toEqual([]);
    expect(game.roster.every((p) => p.playCount === 0 && p.location === 2)).toBe(true);
    const log = await events(gameKey);
    expect(log.map((e) => e.body.kind)).toEqual(['baseline', 'snap', 'snap', 'undo', 'undo']);
    expect(log[2]!.voided_by).toBe(log[3]!.event_id);
    expect(log[1]!.voided_by).toBe(log[4]!.event_id);
    expect(counts(await fold(gameKey))).toEqual(counts(game));
    // The next snap is numbered after the last live one.
    expect(await ok(snap(gameKey, [keys[2]!]))).toEqual({ snapCount: 1, snaps: 1 });
  });

  it("the phone's PUT is stored as its difference; snaps it drops are voided", async () => {
    const gameKey = newGameKey();
    await ok(coach('PUT', `/playcounts/${gameKey}`, sampleGame()));
    const game = sampleGame() as { roster: Array<Record<string, unknown>>; snaps: unknown[] };
    const renamed = {
      ...game,
      roster: [game.roster[0], { ...game.roster[1], playerName: 'Bo Ray' }],
      snaps: [game.snaps[0], { snapCount: 2, groupName: 'Kick', quarter: 3, p2: true }],
    };
    await ok(coach('PUT', `/playcounts/${gameKey}`, renamed));
    const log = await events(gameKey);
    const set = log.filter((e) => e.body.kind === 'set').at(-1)!;
    expect(set.body).toEqual({
      kind: 'set',
      roster: { upsert: [{ key: 'p2', playerName: 'Bo Ray' }] },
    });
    const stillLive = log.filter((e) => e.body.kind === 'snap' && e.voided_by === null);
    expect(stillLive.map((e) => (e.body as { snap: unknown }).snap)).toEqual(renamed.snaps);
    expect(log.filter((e) => e.voided_by === set.event_id)).toHaveLength(2);
    const back = await read(gameKey);
    expect(back.snaps).toEqual(renamed.snaps);
    expect(back.roster[1]!.playerName).toBe('Bo Ray');
    expect(counts(await fold(gameKey))).toEqual(counts(back));
    // The same PUT again changes nothing but records an empty difference.
    await ok(coach('PUT', `/playcounts/${gameKey}`, renamed));
    expect((await events(gameKey)).at(-1)!.body).toEqual({ kind: 'set' });
  });

  it('a snap writes and sends the same bytes at snap 40 as at snap 2 (the stall, not timed)', async () => {
    const { gameKey, keys } = await countOf(30);
    const topic = `playcount:${gameKey}`;
    const socket = await watch(topic, t.users.Coach.cookie);
    const sizes: Array<{ event: number; row: number; frame: number }> = [];
    for (let n = 1; n <= 40; n++) {
      const from = socket.messages.length;
      const field = keys.slice(n % 19, (n % 19) + 11);
      await ok(snap(gameKey, field));
      const delta = await nextDelta(socket, topic, from);
      const log = await events(gameKey);
      sizes.push({
        event: log.at(-1)!.bytes,
        row: (await stored(gameKey)).bytes,
        frame: Buffer.byteLength(JSON.stringify(delta)),
      });
      // What is sent is this snap only, never the snaps before it.
      expect((delta.data as { snaps: { keep: number; add: unknown[] } }).snaps).toEqual({
        keep: n - 1,
        add: [expect.objectContaining({ snapCount: n })],
      });
    }
    // Two digits of snap number and play counts are all that may differ.
    const [at2, at40] = [sizes[1]!, sizes[39]!];
    expect(at40.event).toBeLessThanOrEqual(at2.event + 4);
    expect(at40.row).toBeLessThanOrEqual(at2.row + 2 * keys.length);
    expect(at40.frame).toBeLessThanOrEqual(at2.frame + 2 * 22 + 4);
    // The viewer that applied 40 deltas holds what a new subscriber is sent whole.
    const applied = socket.states(topic).at(-1)!.data;
    const fresh = await watch(topic, t.users.Coach.cookie);
    expect(playCountGameSchema.parse(applied)).toEqual(
      playCountGameSchema.parse(fresh.states(topic).at(-1)!.data),
    );
  });

  it('a snap of a big field still goes out as a delta, from memory, with no read of the count', async () => {
    const { gameKey, keys } = await countOf(150);
    const topic = `playcount:${gameKey}`;
    const socket = await watch(topic, t.users.Coach.cookie);
    const loads = t.app.hub.loads;
    for (let n = 1; n <= 3; n++) {
      const from = socket.messages.length;
      await ok(snap(gameKey, keys));
      const delta = await nextDelta(socket, topic, from);
      // Over the few KB a NOTIFY carries, so kept by this node rather than sent through it.
      expect(Buffer.byteLength(JSON.stringify(delta.data))).toBeGreaterThan(4500);
    }
    expect(t.app.hub.loads).toBe(loads);
    expect(socket.states(topic).at(-1)!.data).toMatchObject({
      roster: keys.map((key) => expect.objectContaining({ key, playCount: 3 })),
    });
  });

  it('a count can be finished (and archiving finishes it): no more snaps, the link says final', async () => {
    const { gameKey, keys } = await countOf(2);
    const { shareKey } = await ok<{ shareKey: string }>(
      coach('PUT', `/playcounts/${gameKey}/share`),
    );
    const anon = anonymous(t.app);
    const shared = async () =>
      sharedPlayCountSchema.parse(
        (await anon({ method: 'GET', url: `${API}/playcount-shares/${shareKey}` })).json(),
      );
    expect((await shared()).finished).toBe(false);
    await ok(snap(gameKey, [keys[0]!]));
    const viewer = await watch(`playcountshare:${shareKey}`);
    const from = viewer.messages.length;
    expect(
      (await ok<PlayCountGame>(coach('PATCH', `/playcounts/${gameKey}`, { finished: true })))
        .finished,
    ).toBe(true);
    const told = await nextDelta(viewer, `playcountshare:${shareKey}`, from);
    expect(told.data).toMatchObject({ fields: { finished: true } });
    expect((await shared()).finished).toBe(true);
    expect((await snap(gameKey, [keys[1]!])).statusCode).toBe(409);
    expect((await undo(gameKey)).statusCode).toBe(409);
    expect((await read(gameKey)).snaps).toHaveLength(1);
    expect((await events(gameKey)).at(-1)!.body).toEqual({ kind: 'finish', finished: true });
    // Taken up again, then archived: archiving finishes it too.
    await ok(coach('PATCH', `/playcounts/${gameKey}`, { finished: false }));
    await ok(snap(gameKey, [keys[1]!]));
    await ok(coach('PATCH', `/playcounts/${gameKey}`, { archived: true }));
    expect(await read(gameKey)).toMatchObject({ archived: true, finished: true });
    expect((await shared()).finished).toBe(true);
  });

  it("a count keeps its sheet's privacy: follows it while the sheet exists, keeps it once deleted", async () => {
    const { teamKey, gameKey } = await countOf(2, { initialsOnly: true, hidePhotos: true });
    const { shareKey } = await ok<{ shareKey: string }>(
      coach('PUT', `/playcounts/${gameKey}/share`),
    );
    const anon = anonymous(t.app);
    const names = async () =>
      sharedPlayCountSchema
        .parse((await anon({ method: 'GET', url: `${API}/playcount-shares/${shareKey}` })).json())
        .roster.map((p) => p.playerName);
    expect(await names()).toEqual(['P. N. B.', 'P. N. B.']);
    // Following the sheet: shown in full, then initials again.
    await ok(coach('PUT', `/teams/${teamKey}/privacy`, { initialsOnly: false, hidePhotos: false }));
    expect(await names()).toEqual(['Player Number1 Brontëson', 'Player Number2 Brontëson']);
    await ok(coach('PUT', `/teams/${teamKey}/privacy`, { initialsOnly: true, hidePhotos: true }));
    const topic = `playcountshare:${shareKey}`;
    const viewer = await watch(topic);
    const from = viewer.messages.length;
    await ok(coach('DELETE', `/teams/${teamKey}`));
    // Open viewers are told at once, and still see initials; so does the next load.
    const after = await viewer.waitFor(
      (m): m is Extract<ServerMessage, { type: 'state' }> => isState(topic)(m),
      from,
    );
    const view = sharedPlayCountSchema.parse(after.data);
    expect(view.teamName).toBeNull();
    expect(view.roster.map((p) => p.playerName)).toEqual(['P. N. B.', 'P. N. B.']);
    expect(await names()).toEqual(['P. N. B.', 'P. N. B.']);
  });
});
