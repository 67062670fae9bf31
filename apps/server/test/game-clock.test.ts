import { describe, expect, it } from 'vitest';
import { clockText, type ClockTopic, type GameClockState } from '@sagan/shared/game-clock';
import { anonymous, API, databaseKinds, newGameOf, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// DESIGN §9 clock model: the game stores the clock's state; start, stop and set happen at the
// server's time; viewers compute the running clock from frames carrying the server's time; the
// phone apps' ticks keep working.

type Clock = NonNullable<ClockTopic>;
type Control = { clock: GameClockState; serverTime: number; seq: number };

describe.each(databaseKinds())('game clock on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper', 'Rival'], listen: true });

  const newGame = () => newGameOf(t.users.Keeper);
  const control = (gameKey: string, payload: object, headers: Record<string, string> = {}) =>
    t.users.Keeper.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/clock/control`,
      payload,
      headers,
    });
  /** The topic's sequence number as committed (this node may not have heard of it yet). */
  const topicSeq = async (topic: string) =>
    Number(
      (await t.db.query<{ seq: number }>('SELECT seq FROM topic_seq WHERE topic = $1', [topic]))[0]
        ?.seq,
    );
  const clockFrames = (ws: TestSocket, topic: string) =>
    ws.states(topic).map((m) => m.data as Clock);
  /** The clock as of the control or tick that answered `seq` (0: whatever state came first). */
  const clockAt = (ws: TestSocket, topic: string, seq: number) =>
    ws.stateAt(topic, seq).then((m) => m.data as Clock);

  it('start, stop and set at the server’s time; viewers get the state, not ticks', async () => {
    const gameKey = await newGame();
    const topic = `clock:${gameKey}`;
    const viewer = await TestSocket.open(t.wsUrl);
    viewer.send({ type: 'subscribe', topic });
    const initial = await clockAt(viewer, topic, 0);
    expect(initial).toMatchObject({ running: false, seconds: 0, formattedTime: '' });

    const set = await control(gameKey, { action: 'set', seconds: 10, direction: 'down' });
    expect(set.statusCode).toBe(200);
    expect(set.json<Control>().clock).toEqual({
      running: false,
      seconds: 10,
      startedAt: null,
      direction: 'down',
      limit: null,
    });
    expect(await clockAt(viewer, topic, set.json<Control>().seq)).toMatchObject({
      formattedTime: '0:10',
    });

    const before = Date.now();
    const started = (await control(gameKey, { action: 'start' })).json<Control>();
    expect(started.clock.running).toBe(true);
    expect(started.clock.startedAt).toBe(started.serverTime);
    expect(started.serverTime).toBeGreaterThanOrEqual(before);
    const running = await clockAt(viewer, topic, started.seq);
    expect(running).toMatchObject({ running: true, seconds: 10, startedAt: started.serverTime });
    expect(started.seq).toBe(await topicSeq(topic));

    // While it runs nothing is sent: the viewer computes what it shows.
    const framesWhileRunning = viewer.messages.length;
    await new Promise((r) => setTimeout(r, 1300));
    expect(viewer.messages.length).toBe(framesWhileRunning);
    expect(clockText(running, running.serverTime)).toBe('0:10');
    expect(clockText(running, started.serverTime + 1300)).toBe('0:09');
    expect(clockText(running, started.serverTime + 60_000)).toBe('0:00');

    const stopped = (await control(gameKey, { action: 'stop' })).json<Control>();
    expect(stopped.clock.running).toBe(false);
    const elapsed = stopped.serverTime - started.serverTime;
    expect(stopped.clock.seconds).toBe(Math.ceil((10_000 - elapsed) / 1000));
    expect(stopped.clock.seconds).toBeLessThanOrEqual(9);
    const frozen = await clockAt(viewer, topic, stopped.seq);
    expect(frozen).toMatchObject({ running: false, seconds: stopped.clock.seconds });
    expect(frozen.formattedTime).toBe(`0:0${stopped.clock.seconds}`);
    viewer.close();
  });

  it('a viewer who joins long after the last change gets the server’s time of joining', async () => {
    const gameKey = await newGame();
    const topic = `clock:${gameKey}`;
    const first = await TestSocket.open(t.wsUrl);
    await first.subscribe(topic);
    const started = (
      await control(gameKey, { action: 'set', seconds: 0, direction: 'up', limit: 3600 })
    ).json<Control>();
    const start = (await control(gameKey, { action: 'start' })).json<Control>();
    await new Promise((r) => setTimeout(r, 600));
    const late = await TestSocket.open(t.wsUrl);
    late.send({ type: 'subscribe', topic });
    const joined = await clockAt(late, topic, start.seq);
    expect(joined.serverTime).toBeGreaterThanOrEqual(started.serverTime + 550);
    expect(joined.serverTime).toBeLessThanOrEqual(Date.now());
    expect(joined).toMatchObject({ running: true, direction: 'up', limit: 3600 });
    // The server-rendered page is seeded the same way.
    const seeded = (await t.app.hub.current(topic)).data as Clock;
    expect(seeded.serverTime).toBeGreaterThanOrEqual(joined.serverTime);
    first.close();
    late.close();
  });

  it("the phone app's ticks still work: a stopped clock showing the phone's text", async () => {
    const gameKey = await newGame();
    const topic = `clock:${gameKey}`;
    await control(gameKey, { action: 'set', seconds: 600, direction: 'down' });
    await control(gameKey, { action: 'start' });
    const viewer = await TestSocket.open(t.wsUrl);
    viewer.send({ type: 'subscribe', topic });
    expect((await clockAt(viewer, topic, 0)).running).toBe(true);
    const tick = await t.users.Keeper.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/clock`,
      payload: { formattedTime: '7:59.9', seconds: 479 },
    });
    expect(tick.statusCode).toBe(200);
    expect(tick.json<{ ok: boolean; seq: number }>()).toEqual({
      ok: true,
      seq: await topicSeq(topic),
    });
    const ticked = await clockAt(viewer, topic, tick.json<{ seq: number }>().seq);
    expect(ticked).toMatchObject({
      running: false,
      startedAt: null,
      seconds: 479,
      formattedTime: '7:59.9',
      direction: 'down',
    });
    expect(clockText(ticked, Date.now() + 60_000)).toBe('7:59.9');
    expect(clockFrames(viewer, topic)).toHaveLength(2);
    viewer.close();
  });

  it('only the owner controls the clock; bad controls are 400; replays change nothing', async () => {
    const gameKey = await newGame();
    const req = { method: 'POST' as const, url: `${API}/games/${gameKey}/clock/control` };
    const start = { ...req, payload: { action: 'start' } };
    expect((await anonymous(t.app)(start)).statusCode).toBe(401);
    expect((await t.users.Rival.request(start)).statusCode).toBe(403);
    const missing = { ...start, url: `${API}/games/noSuchGame1/clock/control` };
    expect((await t.users.Keeper.request(missing)).statusCode).toBe(404);
    for (const payload of [
      { action: 'jump' },
      { action: 'set' },
      { action: 'set', seconds: -1 },
      { action: 'set', seconds: 5, direction: 'sideways' },
      { action: 'set', seconds: 1.5 },
      { action: 'set', seconds: 99 * 60 + 99 },
      { action: 'set', seconds: 60, limit: 100 * 60 },
    ]) {
      const res = await t.users.Keeper.request({ ...req, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const { data } = await t.app.hub.current(`clock:${gameKey}`);
    expect(data).toMatchObject({ running: false, seconds: 0, startedAt: null });

    const first = await control(gameKey, { action: 'start' }, { 'idempotency-key': 'clock-start' });
    await control(gameKey, { action: 'stop' });
    const replay = await control(
      gameKey,
      { action: 'start' },
      { 'idempotency-key': 'clock-start' },
    );
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    const after = (await t.app.hub.current(`clock:${gameKey}`)).data as Clock;
    expect(after.running).toBe(false);
  });

  it('the clock is set up to 99:59; beyond it the refusal says so and the clock keeps its time', async () => {
    const gameKey = await newGame();
    expect((await control(gameKey, { action: 'set', seconds: 99 * 60 + 59 })).statusCode).toBe(200);
    const res = await control(gameKey, { action: 'set', seconds: 99 * 60 + 99 });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toContain('The clock goes up to 99:59.');
    const { data } = await t.app.hub.current(`clock:${gameKey}`);
    expect(data).toMatchObject({ seconds: 99 * 60 + 59, formattedTime: '99:59' });
  });

  it('a deleted game’s clock is null to its viewers', async () => {
    const gameKey = await newGame();
    const topic = `clock:${gameKey}`;
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(topic);
    await t.users.Keeper.request({ method: 'DELETE', url: `${API}/games/${gameKey}` });
    await viewer.stateShowing(topic, (d) => d === null);
    viewer.close();
  });
});
