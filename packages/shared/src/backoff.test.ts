import { describe, expect, it } from 'vitest';
import { MAX_BACKOFF_MS, reconnectDelayMs } from './backoff.ts';

describe('reconnect backoff', () => {
  it('doubles from 500 ms, half of it jittered', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(250);
    expect(reconnectDelayMs(0, () => 1)).toBe(500);
    expect(reconnectDelayMs(3, () => 0)).toBe(2000);
    expect(reconnectDelayMs(3, () => 1)).toBe(4000);
  });

  it('is capped at 15 s however many attempts failed', () => {
    expect(reconnectDelayMs(50, () => 1)).toBe(MAX_BACKOFF_MS);
    expect(reconnectDelayMs(50, () => 0)).toBe(MAX_BACKOFF_MS / 2);
  });
});
