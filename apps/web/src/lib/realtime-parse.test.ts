import { describe, expect, it } from 'vitest';
import { serverMessageSchema } from '@sagan/shared/realtime';

// realtime.ts opens the tab's socket URL at import; give it a location first.
(globalThis as { location?: unknown }).location ??= { protocol: 'http:', host: '127.0.0.1' };
const { parseServerMessage } = await import('./realtime.ts');

// The hand-written envelope check must accept and refuse what serverMessageSchema does.
const cases: unknown[] = [
  { type: 'state', topic: 'game:a', seq: 3, data: { x: 1 } },
  { type: 'state', topic: 'game:a', seq: 0, data: null },
  { type: 'state', topic: 'game:a', seq: -1, data: 1 },
  { type: 'state', topic: 'game:a', seq: 1.5, data: 1 },
  { type: 'state', topic: 7, seq: 1, data: 1 },
  { type: 'state', seq: 1, data: 1 },
  { type: 'state', topic: 'game:a', seq: 1 },
  { type: 'current', topic: 'game:a', seq: 2 },
  { type: 'current', topic: 'game:a' },
  { type: 'error', message: 'nope' },
  { type: 'error', topic: 'game:a', message: 'nope' },
  { type: 'error', topic: 1, message: 'nope' },
  { type: 'error' },
  { type: 'error', topic: 'user:u:games', message: 'Signed out', code: 'signed-out' },
  { type: 'error', message: 'Signed out', code: 'signed-out' },
  { type: 'error', message: 'nope', code: 'something-else' },
  { type: 'pong' },
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

  it('refuses what is not JSON', () => {
    expect(parseServerMessage('{not json')).toBeNull();
  });
});
