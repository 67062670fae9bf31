import { afterAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import { playCountGameSchema, playCountListSchema } from '@sagan/shared/playcount';
import { API, databaseKinds, type TestUser, useTestApp } from './helpers.ts';
import { TestSocket, isState } from './ws-client.ts';
import { newGameKey, sampleGame } from './playcounts-fixtures.ts';

const isError =
  (topic: string) =>
  (m: ServerMessage): m is Extract<ServerMessage, { type: 'error' }> =>
    m.type === 'error' && m.topic === topic;

describe.each(databaseKinds())('play counts live over the WebSocket ($name)', (kind) => {
  const sockets: TestSocket[] = [];

  const t = useTestApp(kind, { users: ['Coach', 'Other'], listen: true });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
  });

  const open = async (user?: TestUser) => {
    const s = await TestSocket.open(t.wsUrl, user ? { cookie: user.cookie } : {});
    sockets.push(s);
    return s;
  };
  const put = (user: TestUser, gameKey: string, payload: object) =>
    user.request({ method: 'PUT', url: `${API}/playcounts/${gameKey}`, payload });

  it('the owner watching a game sees the phone’s next write and an archive, live', async () => {
    const key = newGameKey();
    expect((await put(t.users.Coach, key, sampleGame())).statusCode).toBe(201);
    const topic = `playcount:${key}`;
    const socket = await open(t.users.Coach);
    socket.send({ type: 'subscribe', topic });
    const first = await socket.waitFor(isState(topic));
    expect(playCountGameSchema.parse(first.data).roster[0]?.playCount).toBe(2);

    const from = socket.messages.length;
    const roster = [
      { key: 'p1', jersey: '7', playerName: 'Lee, Ann', playCount: 3, location: 2 },
      { key: 'p2', jersey: '23', playerName: 'Bo Ray', playCount: 2, location: 1 },
    ];
    const snaps = [
      ...(sampleGame().snaps as object[]),
      { snapCount: 4, groupName: 'Offense', quarter: 2, p1: true, p2: true },
    ];
    expect((await put(t.users.Coach, key, sampleGame({ roster, snaps }))).statusCode).toBe(200);
    const second = await socket.stateShowing(
      topic,
      (d) => playCountGameSchema.parse(d).snaps.length === 4,
      from,
    );
    const game = playCountGameSchema.parse(second.data);
    expect(game.roster.map((p) => [p.playCount, p.location])).toEqual([
      [3, 2],
      [2, 1],
    ]);
    expect(game.snaps).toHaveLength(4);

    const from2 = socket.messages.length;
    await t.users.Coach.request({
      method: 'PATCH',
      url: `${API}/playcounts/${key}`,
      payload: { archived: true, minPlays: 3 },
    });
    const third = await socket.stateShowing(
      topic,
      (d) => playCountGameSchema.parse(d).archived,
      from2,
    );
    expect(playCountGameSchema.parse(third.data)).toMatchObject({ archived: true, minPlays: 3 });
  });

  it('user:{uid}:playcounts carries my list and gains a new game live', async () => {
    const topic = `user:${t.users.Coach.uid}:playcounts`;
    const socket = await open(t.users.Coach);
    socket.send({ type: 'subscribe', topic });
    const first = await socket.waitFor(isState(topic));
    const before = playCountListSchema.parse(first.data).games;

    const key = newGameKey();
    const from = socket.messages.length;
    await put(t.users.Coach, key, sampleGame({ gameName: 'Brand new game' }));
    const next = await socket.waitFor(
      (m): m is Extract<ServerMessage, { type: 'state' }> =>
        isState(topic)(m) && playCountListSchema.parse(m.data).games.some((g) => g.gameKey === key),
      from,
    );
    const games = playCountListSchema.parse(next.data).games;
    expect(games).toHaveLength(before.length + 1);
    expect(games[0]).toMatchObject({ gameKey: key, gameName: 'Brand new game', archived: false });
  });

  it("nobody else may watch a user's game or list: another user and anonymous are refused", async () => {
    const key = newGameKey();
    await put(t.users.Coach, key, sampleGame());
    const gameTopic = `playcount:${key}`;
    const listTopic = `user:${t.users.Coach.uid}:playcounts`;
    // The owner watches too: once their socket shows a write, it has been sent to everyone.
    const owner = await open(t.users.Coach);
    await owner.subscribe(gameTopic);

    for (const [i, socket] of [await open(t.users.Other), await open()].entries()) {
      socket.send({ type: 'subscribe', topic: gameTopic });
      socket.send({ type: 'subscribe', topic: listTopic });
      await socket.waitFor(isError(gameTopic));
      await socket.waitFor(isError(listTopic));
      // A later write is not delivered to them either.
      const gameName = `Still private ${i}`;
      await put(t.users.Coach, key, sampleGame({ gameName }));
      await owner.stateShowing(
        gameTopic,
        (d) => playCountGameSchema.parse(d).gameName === gameName,
      );
      await socket.drained();
      expect(socket.messages.some((m) => m.type === 'state')).toBe(false);
    }
  });
});
