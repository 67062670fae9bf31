import { describe, expect, it } from 'vitest';
import { parseServerMessage, RealtimeErrorCode, ServerMessageType } from './realtime-envelope.ts';
import { serverMessageSchema } from './realtime.ts';

// The zod-free envelope check must accept and refuse exactly what serverMessageSchema does. Every
// error code and message type the protocol names gets a case of its own, so a code added to the
// constants without the check (a page over the topic limit once stayed on "Loading") fails here.
const perCode = Object.values(RealtimeErrorCode).flatMap((code) => [
  { type: 'error', message: 'refused', code },
  { type: 'error', topic: 'game:a', message: 'refused', code },
]);
const perType = Object.values(ServerMessageType).map((type) => ({ type }));
const cases: unknown[] = [
  ...perCode,
  ...perType,
  { type: 'state', topic: 'game:a', seq: 3, data: { x: 1 } },
  { type: 'state', topic: 'game:a', seq: 0, data: null },
  { type: 'state', topic: 'game:a', seq: -1, data: 1 },
  { type: 'state', topic: 'game:a', seq: 1.5, data: 1 },
  { type: 'state', topic: 7, seq: 1, data: 1 },
  { type: 'state', seq: 1, data: 1 },
  { type: 'state', topic: 'game:a', seq: 1 },
  { type: 'delta', topic: 'playcount:a', seq: 4, data: { changed: [] } },
  { type: 'delta', topic: 'playcount:a', seq: 4 },
  { type: 'current', topic: 'game:a', seq: 2 },
  { type: 'current', topic: 'game:a' },
  { type: 'error', message: 'nope' },
  { type: 'error', topic: 'game:a', message: 'nope' },
  { type: 'error', topic: 1, message: 'nope' },
  { type: 'error', message: 'nope', code: 'something-else' },
  { type: 'reconnect', afterMs: 1000 },
  { type: 'reconnect', afterMs: '1000' },
  { type: 'other' },
  {},
  null,
  'state',
  [1, 2],
];

describe('parseServerMessage', () => {
  it.each(cases.map((c) => [JSON.stringify(c), c]))('agrees with the schema on %s', (raw, c) => {
    expect(parseServerMessage(raw) !== null).toBe(serverMessageSchema.safeParse(c).success);
  });

  it('takes the topic-limit refusal, so the page can say why instead of loading forever', () => {
    const raw = JSON.stringify({
      type: 'error',
      topic: 'game:a',
      message: 'Too many',
      code: 'topic-limit',
    });
    expect(parseServerMessage(raw)).toMatchObject({ type: 'error', code: 'topic-limit' });
  });

  it('refuses what is not JSON', () => {
    expect(parseServerMessage('{not json')).toBeNull();
  });
});
