import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BACKOFF_MS, Reconnects, reconnectDelayMs } from './backoff.ts';

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

describe('Reconnects', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /**
   * A connection whose reconnects are counted, its jitter pinned to the longest wait; after(ms)
   * moves the clock on and answers how many reconnects there have been.
   */
  function counted() {
    let connects = 0;
    const reconnects = new Reconnects(
      () => connects++,
      () => 1,
    );
    const after = (ms: number) => {
      vi.advanceTimersByTime(ms);
      return connects;
    };
    return { reconnects, after };
  }

  it('waits once at a time, longer after each failure, and from the start after an open', () => {
    const { reconnects, after } = counted();
    reconnects.schedule();
    reconnects.schedule(); // a second drop while one waits changes nothing
    expect(reconnects.holding).toBe(true);
    expect([after(499), after(1)]).toEqual([0, 1]);
    expect(reconnects.holding).toBe(false);
    reconnects.schedule();
    expect([after(999), after(1)]).toEqual([1, 2]);
    reconnects.reset();
    reconnects.schedule();
    expect(after(500)).toBe(3);
  });

  it('comes back when the server asked, and never once stopped', () => {
    const { reconnects, after } = counted();
    reconnects.scheduleAsked(1000);
    expect([after(1499), after(1)]).toEqual([0, 1]);
    reconnects.schedule();
    reconnects.stop();
    reconnects.schedule();
    expect(reconnects.holding).toBe(true);
    expect(after(MAX_BACKOFF_MS)).toBe(1);
  });
});
