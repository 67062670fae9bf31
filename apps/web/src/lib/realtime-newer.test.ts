import { describe, expect, it } from 'vitest';

import { offlineClient } from './offline-realtime-client.ts';

const TOPIC = 'team:t1';

/** A client that never opens a socket, and the topic's states the test hands it. */
function teamClient() {
  const { client, message } = offlineClient(TOPIC);
  const state = (seq: number, data: unknown) => message({ type: 'state', seq, data });
  return { client, state };
}

const settled = async (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

// A write over the API settles once the topic shows it, so a screen that reads the topic never
// shows the state from before a save that succeeded.
describe('RealtimeClient.newerThan', () => {
  it('waits for a state newer than the one seen before the write', async () => {
    const { client, state } = teamClient();
    const off = client.subscribe(TOPIC, () => undefined);
    state(3, { v: 'old' });
    const waiting = client.newerThan(TOPIC, 3, 5000);
    expect(await settled(waiting, 50)).toBe(false);
    state(4, { v: 'new' });
    expect(await settled(waiting, 50)).toBe(true);
    expect(client.snapshot(TOPIC)?.data).toEqual({ v: 'new' });
    off();
    expect(client.snapshot(TOPIC)).toBeUndefined();
  });

  it('settles at once when the new state came before the write’s answer', async () => {
    const { client, state } = teamClient();
    const off = client.subscribe(TOPIC, () => undefined);
    state(3, null);
    state(4, null);
    expect(await settled(client.newerThan(TOPIC, 3, 5000), 50)).toBe(true);
    off();
  });

  it('does not wait for a topic nobody reads, and gives up after its timeout', async () => {
    const { client, state } = teamClient();
    expect(await settled(client.newerThan(TOPIC, 3, 5000), 50)).toBe(true);
    const off = client.subscribe(TOPIC, () => undefined);
    state(3, null);
    expect(await settled(client.newerThan(TOPIC, 3, 30), 200)).toBe(true);
    off();
  });
});
