import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import {
  CLOSE_TOO_MANY_MESSAGES,
  CLOSE_TOO_MANY_SOCKETS,
  socketLimits,
  TOPIC_LIMIT,
} from '../src/realtime/limits.ts';
import { databaseKinds, newGameOf, signInLocal, until, useTestApp } from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

/**
 * One socket (or one address) must not be able to occupy the server: the refusals of the
 * realtime limits, at a small RATE_LIMIT_FACTOR so the numbers stay small. The latency a flood
 * causes is a benchmark figure (bench/ws-flood.ts), not asserted here.
 */
const FACTOR = 0.1;
const limits = socketLimits(FACTOR);

type ErrorMessage = Extract<ServerMessage, { type: 'error' }>;
const isError =
  (topic: string) =>
  (m: ServerMessage): m is ErrorMessage =>
    m.type === 'error' && m.topic === topic;
const isPong = (m: ServerMessage): m is Extract<ServerMessage, { type: 'pong' }> =>
  m.type === 'pong';

describe.each(databaseKinds())('realtime limits on $name', (kind) => {
  let gameKey: string;
  let tx: ReturnType<typeof vi.spyOn>;
  let query: ReturnType<typeof vi.spyOn>;
  const open: TestSocket[] = [];

  const connect = async (localAddress = '127.0.0.1') => {
    const socket = await TestSocket.open(t.wsUrl, {}, { localAddress });
    open.push(socket);
    return socket;
  };

  const t = useTestApp(kind, {
    config: { rateLimitFactor: FACTOR },
    listen: true,
    beforeBuild: (db) => {
      // Before the app copies the database's methods, so the hub's reads go through the spies.
      tx = vi.spyOn(db, 'tx');
      query = vi.spyOn(db, 'query');
    },
  });
  beforeAll(async () => {
    const keeper = await signInLocal(t.app, 'Keeper');
    gameKey = await newGameOf(keeper, {
      gameName: 'Limits Cup',
      homeTeamName: 'Owls',
      awayTeamName: 'Larks',
    });
  });
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.close();
    await until(() => t.app.hub.connectionCount === 0);
  });

  it('refuses a subscribe beyond the topics one socket may hold, and keeps the socket open', async () => {
    const ws = await connect();
    tx.mockClear();
    query.mockClear();
    for (let i = 0; i < limits.topicsPerSocket; i++) {
      ws.send({ type: 'subscribe', topic: `game:nosuch${i}` });
    }
    await until(() => ws.messages.length === limits.topicsPerSocket);
    expect(ws.messages.every((m) => m.type === 'state' && m.data === null)).toBe(true);
    // Made-up keys arriving together are checked together: fewer reads than topics.
    expect(tx).not.toHaveBeenCalled();
    expect(query.mock.calls.length).toBeLessThan(limits.topicsPerSocket);

    ws.send({ type: 'subscribe', topic: `game:${gameKey}` });
    const refused = await ws.waitFor(isError(`game:${gameKey}`));
    expect(refused.code).toBe(TOPIC_LIMIT);
    expect(ws.closed).toBeNull();

    // Letting one go makes room for another.
    ws.send({ type: 'unsubscribe', topic: 'game:nosuch0' });
    const from = ws.messages.length;
    ws.send({ type: 'subscribe', topic: `game:${gameKey}` });
    const state = await ws.waitFor(isState(`game:${gameKey}`), from);
    expect(state.data).not.toBeNull();
  });

  it('closes a socket that sends messages faster than the limit (4029); a burst within it is served', async () => {
    const calm = await connect();
    for (let i = 0; i < limits.messageBurst; i++) calm.send({ type: 'ping' });
    await until(() => calm.messages.filter(isPong).length === limits.messageBurst);
    expect(calm.closed).toBeNull();

    const flood = await connect();
    for (let i = 0; i < limits.messageBurst * 4; i++) flood.send({ type: 'ping' });
    expect((await flood.waitClosed()).code).toBe(CLOSE_TOO_MANY_MESSAGES);
    expect(flood.messages.filter(isPong).length).toBeLessThan(limits.messageBurst * 4);
  });

  it('closes sockets beyond the limit per client address (4008); other addresses still connect', async () => {
    const sockets: TestSocket[] = [];
    for (let i = 0; i < limits.socketsPerAddress; i++) sockets.push(await connect());
    const extra = await connect();
    expect((await extra.waitClosed()).code).toBe(CLOSE_TOO_MANY_SOCKETS);

    const elsewhere = await connect('127.0.0.2');
    elsewhere.send({ type: 'ping' });
    await elsewhere.waitFor(isPong);
    const last = sockets.at(-1)!;
    last.send({ type: 'ping' });
    await last.waitFor(isPong);

    // A socket that leaves frees its place.
    const before = t.app.hub.connectionCount;
    sockets[0]!.close();
    await until(() => t.app.hub.connectionCount === before - 1);
    const again = await connect();
    again.send({ type: 'ping' });
    await again.waitFor(isPong);
    expect(again.closed).toBeNull();
  });

  it('answers topics that do not exist with null from at most one read each, without a transaction', async () => {
    const ws = await connect();
    // A topic is read in a snapshot transaction. Other transactions run meanwhile, whatever the
    // sockets ask: the coalescer numbers the new game's list changes, and on PostgreSQL the node
    // writes its viewer counts every second (on a loaded machine, within this test's window).
    const snapshots = () =>
      tx.mock.calls.filter(
        (call: unknown[]) => (call[1] as { snapshot?: boolean } | undefined)?.snapshot,
      );
    const unknown = ['game:nosuchgame', 'clock:nosuchgame', 'tag:nosuchtag', 'roster:nosuchsheet'];
    tx.mockClear();
    query.mockClear();
    for (const topic of unknown) ws.send({ type: 'subscribe', topic });
    for (const topic of unknown) expect((await ws.waitFor(isState(topic))).data).toBeNull();
    expect(snapshots()).toHaveLength(0);
    expect(query.mock.calls.length).toBeLessThanOrEqual(unknown.length);

    // A game that exists is still read whole, in its snapshot (a new one: the node keeps the
    // frames of games subscribed to before, see realtime-churn.test.ts).
    const keeper = await signInLocal(t.app, 'Second keeper');
    const fresh = await newGameOf(keeper, {
      gameName: 'Fresh Cup',
      homeTeamName: 'Owls',
      awayTeamName: 'Larks',
    });
    tx.mockClear();
    ws.send({ type: 'subscribe', topic: `game:${fresh}` });
    const game = await ws.waitFor(isState(`game:${fresh}`));
    expect(game.data).toMatchObject({ top: { homeTeamName: 'Owls' } });
    expect(snapshots()).toHaveLength(1);
  });
});
