import { describe, expect, it } from 'vitest';
import {
  applyClockControl,
  clockControlSchema,
  clockDisplay,
  clockInputSchema,
  clockText,
  formatClock,
  initialClockState,
  MAX_SET_SECONDS,
  type GameClockState,
} from './game-clock.ts';

const T0 = 1_750_000_000_000;
const running = (over: Partial<GameClockState>): GameClockState => ({
  ...initialClockState,
  running: true,
  startedAt: T0,
  ...over,
});

describe('formatClock', () => {
  it('is m:ss up to 99:59 (as a board prints it) and h:mm:ss beyond', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(9)).toBe('0:09');
    expect(formatClock(61)).toBe('1:01');
    expect(formatClock(3599)).toBe('59:59');
    expect(formatClock(3600)).toBe('60:00');
    expect(formatClock(99 * 60 + 59)).toBe('99:59');
    expect(formatClock(100 * 60)).toBe('1:40:00');
    expect(formatClock(2 * 3600 + 5 * 60 + 7)).toBe('2:05:07');
    expect(formatClock(-3)).toBe('0:00');
  });
});

describe('clockDisplay', () => {
  it('a stopped clock shows its seconds whatever the time', () => {
    const stopped = { ...initialClockState, seconds: 125 };
    expect(clockDisplay(stopped, T0)).toEqual({ seconds: 125, formattedTime: '2:05' });
    expect(clockDisplay(stopped, T0 + 3_600_000)).toEqual({ seconds: 125, formattedTime: '2:05' });
  });

  it('counting up shows the whole seconds gone since it started', () => {
    const clock = running({ seconds: 10, direction: 'up' });
    expect(clockDisplay(clock, T0).seconds).toBe(10);
    expect(clockDisplay(clock, T0 + 999).seconds).toBe(10);
    expect(clockDisplay(clock, T0 + 1000).seconds).toBe(11);
    expect(clockDisplay(clock, T0 + 5_990_000)).toEqual({
      seconds: 6000,
      formattedTime: '1:40:00',
    });
  });

  it('counting up stops at its limit', () => {
    const clock = running({ seconds: 0, direction: 'up', limit: 90 });
    expect(clockDisplay(clock, T0 + 89_500).seconds).toBe(89);
    expect(clockDisplay(clock, T0 + 90_000).seconds).toBe(90);
    expect(clockDisplay(clock, T0 + 500_000)).toEqual({ seconds: 90, formattedTime: '1:30' });
  });

  it('counting down shows the seconds left, rounded up, and stops at 0', () => {
    const clock = running({ seconds: 600, direction: 'down' });
    expect(clockDisplay(clock, T0).formattedTime).toBe('10:00');
    expect(clockDisplay(clock, T0 + 1).formattedTime).toBe('10:00');
    expect(clockDisplay(clock, T0 + 1000).formattedTime).toBe('9:59');
    expect(clockDisplay(clock, T0 + 599_001).formattedTime).toBe('0:01');
    expect(clockDisplay(clock, T0 + 600_000)).toEqual({ seconds: 0, formattedTime: '0:00' });
    expect(clockDisplay(clock, T0 + 9_000_000).seconds).toBe(0);
  });

  it('a viewer whose time is before the start (clock skew) sees the start time', () => {
    expect(clockDisplay(running({ seconds: 30, direction: 'down' }), T0 - 5000).seconds).toBe(30);
    expect(clockDisplay(running({ seconds: 30, direction: 'up' }), T0 - 5000).seconds).toBe(30);
  });
});

describe('clockText', () => {
  it("computes a running clock and shows a stopped one's text (the phone's, as sent)", () => {
    const base = { formattedTime: 'Q1 7:59', serverTime: T0 };
    expect(clockText({ ...base, ...initialClockState, seconds: 479 }, T0 + 60_000)).toBe('Q1 7:59');
    expect(
      clockText({ ...base, ...running({ seconds: 479, direction: 'down' }) }, T0 + 60_000),
    ).toBe('6:59');
  });
});

describe('applyClockControl', () => {
  it('start runs the clock from now; a second start changes nothing', () => {
    const started = applyClockControl(
      { ...initialClockState, seconds: 42 },
      { action: 'start' },
      T0,
    );
    expect(started).toEqual({ ...initialClockState, seconds: 42, running: true, startedAt: T0 });
    expect(applyClockControl(started, { action: 'start' }, T0 + 5000)).toBe(started);
  });

  it('stop keeps what the clock showed at that moment; a second stop changes nothing', () => {
    const clock = running({ seconds: 300, direction: 'down' });
    const stopped = applyClockControl(clock, { action: 'stop' }, T0 + 61_000);
    expect(stopped).toEqual({ ...clock, running: false, startedAt: null, seconds: 239 });
    expect(applyClockControl(stopped, { action: 'stop' }, T0 + 99_000)).toBe(stopped);
  });

  it('set changes the time, direction and limit; a running clock runs on from the new time', () => {
    const set = applyClockControl(
      initialClockState,
      { action: 'set', seconds: 720, direction: 'down' },
      T0,
    );
    expect(set).toEqual({ ...initialClockState, seconds: 720, direction: 'down' });
    const clock = running({ seconds: 0, limit: 60 });
    const reset = applyClockControl(clock, { action: 'set', seconds: 5 }, T0 + 30_000);
    expect(reset).toEqual({ ...clock, seconds: 5, startedAt: T0 + 30_000 });
    const unlimited = applyClockControl(clock, { action: 'set', seconds: 0, limit: null }, T0);
    expect(unlimited.limit).toBeNull();
  });
});

describe('the scorekeeper’s clock field', () => {
  const read = (text: string) => clockInputSchema.safeParse(text);
  const message = (text: string) => read(text).error?.issues[0]?.message;

  it('reads m:ss up to 99:59, and whole minutes', () => {
    expect(read('12:00').data).toBe(720);
    expect(read(' 0:05 ').data).toBe(5);
    expect(read('99:59').data).toBe(MAX_SET_SECONDS);
    expect(read('20').data).toBe(1200);
  });

  it('says what is wrong in plain words', () => {
    expect(message('99:99')).toBe('The seconds go up to 59.');
    expect(message('100:00')).toBe('The clock goes up to 99:59.');
    expect(message('1:5')).toBe('Write the seconds with two digits, e.g. 1:05.');
    expect(message('1:05:00')).toBe('Write the time as minutes:seconds, e.g. 12:00.');
    expect(message('ten')).toBe('Write the time as minutes:seconds, e.g. 12:00.');
    expect(message('')).toBe('Write the time as minutes:seconds, e.g. 12:00.');
  });

  it('the server’s set control refuses more than 99:59 in the same words', () => {
    const set = (seconds: number) => clockControlSchema.safeParse({ action: 'set', seconds });
    expect(set(MAX_SET_SECONDS).success).toBe(true);
    expect(set(6039).error?.issues[0]?.message).toBe('The clock goes up to 99:59.');
    expect(clockControlSchema.safeParse({ action: 'set', seconds: 60, limit: 6000 }).success).toBe(
      false,
    );
  });
});
