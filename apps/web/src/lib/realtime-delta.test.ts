import { describe, expect, it } from 'vitest';
import { applyPlayCountDelta } from '@sagan/shared/playcount-delta';

import { offlineClient } from './offline-realtime-client.ts';

const TOPIC = 'playcount:g1';
const recordingClient = () => offlineClient(TOPIC);

const first = { gameName: 'G', roster: [{ key: 'p1', playCount: 0 }], snaps: [] };

// A play count's topic sends its whole state first, then only what each write changed
// (docs/decisions/0002, amended).
describe('RealtimeClient deltas', () => {
  it('applies a delta that follows the state held', () => {
    const { client, message } = recordingClient();
    client.subscribe(TOPIC, () => undefined, applyPlayCountDelta);
    message({ type: 'state', seq: 4, data: first });
    message({
      type: 'delta',
      seq: 5,
      data: {
        roster: { upsert: [{ key: 'p1', playCount: 1 }] },
        snaps: { keep: 0, add: [{ n: 1 }] },
      },
    });
    expect(client.snapshot(TOPIC)).toMatchObject({
      seq: 5,
      data: { gameName: 'G', roster: [{ key: 'p1', playCount: 1 }], snaps: [{ n: 1 }] },
    });
    // An old one (a repeat) changes nothing.
    message({ type: 'delta', seq: 5, data: { fields: { gameName: 'X' } } });
    expect(client.snapshot(TOPIC)?.data).toMatchObject({ gameName: 'G' });
  });

  it('after a missed change, asks for the whole state again instead of applying', () => {
    const { client, sent, message } = recordingClient();
    client.subscribe(TOPIC, () => undefined, applyPlayCountDelta);
    message({ type: 'state', seq: 4, data: first });
    sent.length = 0;
    message({ type: 'delta', seq: 6, data: { fields: { gameName: 'X' } } });
    expect(client.snapshot(TOPIC)).toMatchObject({ seq: 4, data: first });
    expect(sent).toEqual([{ type: 'subscribe', topic: TOPIC, sinceSeq: 4 }]);
  });
});
