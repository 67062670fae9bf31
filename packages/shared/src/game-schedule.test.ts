import { describe, expect, it } from 'vitest';
import { formatStart, showsStart, startFromLocalInput, startProblem } from './game-schedule.ts';
import { newGameSchema } from './scoreboard.ts';

const NOW = Date.UTC(2026, 4, 2, 12, 0);
const MIN = 60_000;

describe('a game scheduled ahead', () => {
  it('takes a start to come, or one just gone, and refuses one long gone or too far ahead', () => {
    expect(startProblem(NOW + 90 * MIN, NOW)).toBeNull();
    expect(startProblem(NOW - 5 * MIN, NOW)).toBeNull();
    expect(startProblem(NOW - 60 * MIN, NOW)).toBe(
      'The start has already passed: pick a later time',
    );
    expect(startProblem(NOW + 500 * 86_400_000, NOW)).toBe('The start must be within 400 days');
  });

  it('refuses a malformed start in words, and a game without one is as before', () => {
    const said = (body: unknown) =>
      newGameSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(said({ startsAt: 'tomorrow' })).toEqual(['The start must be a date and time']);
    expect(said({ startsAt: 1.5 })).toEqual(['The start must be a date and time']);
    expect(said({ startsAt: Date.now() - 3_600_000 })).toEqual([
      'The start has already passed: pick a later time',
    ]);
    expect(said({ gameName: 'No start' })).toEqual([]);
    expect(said({ startsAt: Date.now() + 3_600_000 })).toEqual([]);
  });

  it("reads the form's date and time in the viewer's zone, and nothing else", () => {
    expect(startFromLocalInput('2026-05-02T18:30')).toBe(new Date(2026, 4, 2, 18, 30).getTime());
    expect(startFromLocalInput('2026-05-02T18:30:15')).toBe(
      new Date(2026, 4, 2, 18, 30, 15).getTime(),
    );
    expect(startFromLocalInput('')).toBeNull();
    expect(startFromLocalInput('2026-05-02')).toBeNull();
    expect(startFromLocalInput('2026-13-40T18:30')).toBeNull();
  });

  it('writes the start in the time zone it is shown in', () => {
    const start = Date.UTC(2026, 4, 2, 17, 30);
    expect(formatStart(start, 'en-US', 'America/New_York')).toBe('Sat, May 2, 1:30 PM');
    expect(formatStart(start, 'en-GB', 'Europe/London')).toBe('Sat 2 May, 18:30');
  });

  it('shows the start only while the game is Starting Soon', () => {
    expect(showsStart({ startsAt: NOW, gamePeriod: 'Starting Soon' })).toBe(true);
    expect(showsStart({ startsAt: NOW, gamePeriod: 'Q1' })).toBe(false);
    expect(showsStart({ gamePeriod: 'Starting Soon' })).toBe(false);
  });
});
