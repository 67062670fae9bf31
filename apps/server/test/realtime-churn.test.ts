import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLOSE_TOO_MANY_MESSAGES, socketLimits } from '../src/realtime/limits.ts';
import {
  API,
  databaseKinds,
  newGameOf,
  newTeamOf,
  signInLocal,
  until,
  useTestApp,
  type TestUser,
} from './helpers.ts';
import { TestSocket } from './ws-client.ts';

/**
 * A client that subscribes and unsubscribes the same big topic in a loop: its repeats are
 * served from the frame the node keeps (no database read), and what its requests cost in bytes
 * is limited per socket, so it cannot make the server send tens of MB a second.
 */
const FACTOR = 0.1;
const limits = socketLimits(FACTOR);

describe.each(databaseKinds())('subscribe churn on $name', (kind) => {
  let tx: ReturnType<typeof vi.spyOn>;
  let coach: TestUser;
  let rosterTopic: string;
  let rosterBytes: number;
  const open: TestSocket[] = [];

  const t = useTestApp(kind, {
    config: { rateLimitFactor: FACTOR },
    listen: true,
    beforeBuild: (db) => {
      // Before the app copies the database's methods, so the hub's reads go through the spy.
      tx = vi.spyOn(db, 'tx');
    },
  });
  const connect = async () => {
    const socket = await TestSocket.open(t.wsUrl);
    open.push(socket);
    return socket;
  };

  beforeAll(async () => {
    coach = await signInLocal(t.app, 'Coach');
    const teamKey = await newTeamOf(coach);
    // A big public roster: 400 players with long names, about 100 KB a state.
    const lines = Array.from(
      { length: 400 },
      (_, i) => `${i + 1}, ${'Player'.padEnd(90, 'x')} ${i}`,
    );
    const bulk = await coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/players/bulk`,
      payload: { text: lines.join('\n') },
    });
    expect(bulk.statusCode).toBe(200);
    const published = await coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    rosterTopic = `roster:${published.json<{ publishedAsKey: string }>().publishedAsKey}`;
    const ws = await connect();
    const first = await ws.subscribe(rosterTopic);
    rosterBytes = Buffer.byteLength(JSON.stringify(first));
    expect(rosterBytes).toBeGreaterThan(50_000);
  });
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.close();
    await until(() => t.app.hub.connectionCount === 0);
  });

  it('serves repeat subscribes from the kept frame, and reads again once the topic changes', async () => {
    const gameKey = await newGameOf(coach, {
      gameName: 'Churn Cup',
      homeTeamName: 'Owls',
      awayTeamName: 'Larks',
    });
    const topic = `game:${gameKey}`;
    const ws = await connect();
    const churn = async () => {
      const state = await ws.subscribe(topic);
      expect(state.data).toMatchObject({ top: { homeTeamName: 'Owls' } });
      ws.send({ type: 'unsubscribe', topic });
    };
    // The first subscribe reads the game, and reads it again should the create's own
    // notification arrive while it reads (it answers after both): the repeats count from here.
    await churn();
    tx.mockClear();
    for (let i = 0; i < 7; i++) await churn();
    expect(tx).not.toHaveBeenCalled();
    await until(() => t.app.hub.subscriberCount(topic) === 0);
    expect(t.app.hub.idleTopics).toBeGreaterThan(0);

    // A change nobody here watches drops the kept frame: the next subscriber reads the new one.
    const renamed = await coach.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { homeTeamName: 'Hawks' },
    });
    expect(renamed.statusCode).toBe(200);
    await until(async () => {
      const state = await ws.subscribe(topic);
      ws.send({ type: 'unsubscribe', topic });
      return (state.data as { top: { homeTeamName: string } }).top.homeTeamName === 'Hawks';
    });
  });

  it('cuts off a socket that keeps asking for a big state (4029), by the bytes it costs', async () => {
    const ws = await connect();
    // Within the message limits, far over the byte limit.
    const asks = Math.min(limits.messageBurst - 1, Math.ceil((limits.byteBurst * 3) / rosterBytes));
    expect(asks * rosterBytes).toBeGreaterThan(limits.byteBurst * 2);
    const started = Date.now();
    for (let i = 0; i < asks; i++) ws.send({ type: 'subscribe', topic: rosterTopic });
    expect((await ws.waitClosed(30_000)).code).toBe(CLOSE_TOO_MANY_MESSAGES);
    const refilled = ((Date.now() - started) / 1000) * limits.bytesPerSecond;
    const served = ws.states(rosterTopic).length;
    expect(served).toBeLessThan(asks);
    // The burst, what refilled meanwhile, and one state overdrawing it.
    expect(served * rosterBytes).toBeLessThanOrEqual(limits.byteBurst + refilled + rosterBytes);

    // Another socket asking for the same state once is served.
    const calm = await connect();
    expect((await calm.subscribe(rosterTopic)).data).not.toBeNull();
    expect(calm.closed).toBeNull();
  });
});
