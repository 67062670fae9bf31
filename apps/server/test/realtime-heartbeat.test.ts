import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { heartbeat } from '../src/realtime/ws-route.ts';

describe('the WebSocket heartbeat', () => {
  const n = 1500;
  let wss: WebSocketServer;
  const viewers: WebSocket[] = [];
  beforeAll(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const { port } = wss.address() as AddressInfo;
    const joined = new Promise<void>((resolve) => {
      wss.on('connection', () => {
        if (wss.clients.size === n) resolve();
      });
    });
    for (let i = 0; i < n; i++) viewers.push(new WebSocket(`ws://127.0.0.1:${port}`));
    await joined;
  }, 60_000);
  afterAll(async () => {
    for (const v of viewers) v.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('pings thousands of viewers over several turns of the event loop, every one once', async () => {
    // Writing a ping to each of them at once held the loop for a tenth of a second or more
    // every heartbeat: no timer, no write answered until the last ping was written.
    const alive = new WeakSet<object>(wss.clients);
    const clients = [...wss.clients];
    const pinged = () => clients.filter((c) => !alive.has(c)).length;
    let pingedAtTurn = -1;
    setImmediate(() => (pingedAtTurn = pinged()));
    const pongs = Promise.all(
      clients.map((c) => new Promise((resolve) => c.once('pong', resolve))),
    );
    await new Promise<void>((resolve) => heartbeat(wss.clients, alive, resolve));
    expect(pingedAtTurn).toBeGreaterThan(0);
    expect(pingedAtTurn).toBeLessThan(n);
    expect(pinged()).toBe(n);
    await pongs;
  });

  it('ends a viewer that did not answer the last ping, and pings the rest', async () => {
    const [silent, ...answered] = [...wss.clients];
    const alive = new WeakSet<object>(answered);
    const closed = new Promise((resolve) => silent!.once('close', resolve));
    await new Promise<void>((resolve) => heartbeat(wss.clients, alive, resolve));
    await closed;
    expect(wss.clients.has(silent!)).toBe(false);
    expect(answered.every((c) => !alive.has(c))).toBe(true);
  });
});
