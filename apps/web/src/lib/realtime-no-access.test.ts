import { describe, expect, it } from 'vitest';

import { offlineClient } from './offline-realtime-client.ts';

const TOPIC = 'gamehistory:g1';

// A removed co-scorer's socket is told 'no-access' for each scorers' topic it loses: what the
// tab held of it goes, and so does its sequence number, so a later subscription (invited
// again) gets the whole state rather than "current" for a state the tab no longer has.
describe("RealtimeClient on 'no-access'", () => {
  it('drops the data and the sequence number, keeps the message, and tells the listeners', () => {
    const { client, message: hear } = offlineClient(TOPIC);
    let told = 0;
    const off = client.subscribe(TOPIC, () => told++);
    let signedOut = 0;
    client.onSignedOut(() => signedOut++);
    hear({ type: 'state', seq: 7, data: { entries: [] } });
    const message = 'You no longer have access to this topic';
    hear({ type: 'error', message, code: 'no-access' });
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
