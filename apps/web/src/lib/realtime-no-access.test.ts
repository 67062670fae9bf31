import { describe, expect, it } from 'vitest';

// realtime.ts opens the tab's socket URL at import; give it a location first.
(globalThis as { location?: unknown }).location ??= { protocol: 'http:', host: '127.0.0.1' };
// Node before 22 has no WebSocket; the client only reads its OPEN constant here.
(globalThis as { WebSocket?: unknown }).WebSocket ??= { OPEN: 1 };
const { RealtimeClient } = await import('./realtime.ts');

const TOPIC = 'gamehistory:g1';

// A removed co-scorer's socket is told 'no-access' for each scorers' topic it loses: what the
// tab held of it goes, and so does its sequence number, so a later subscription (invited
// again) gets the whole state rather than "current" for a state the tab no longer has.
describe("RealtimeClient on 'no-access'", () => {
  it('drops the data and the sequence number, keeps the message, and tells the listeners', () => {
    const client = new RealtimeClient('ws://127.0.0.1:9/never');
    const inner = client as unknown as { stopped: boolean; onMessage(raw: string): void };
    inner.stopped = true;
    let told = 0;
    const off = client.subscribe(TOPIC, () => told++);
    let signedOut = 0;
    client.onSignedOut(() => signedOut++);
    inner.onMessage(JSON.stringify({ type: 'state', topic: TOPIC, seq: 7, data: { entries: [] } }));
    const message = 'You no longer have access to this topic';
    inner.onMessage(JSON.stringify({ type: 'error', topic: TOPIC, message, code: 'no-access' }));
    expect(client.snapshot(TOPIC)).toMatchObject({
      seq: undefined,
      data: undefined,
      error: message,
      subscribed: false,
    });
    expect(told).toBe(2);
    // The session itself goes on: nobody is signed out.
    expect(signedOut).toBe(0);
    off();
  });
});
