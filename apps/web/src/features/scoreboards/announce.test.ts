import { describe, expect, it } from 'vitest';
import { AnnounceThrottle, scoreSentence } from './announce.ts';

describe('score announcements', () => {
  it('reads like a sentence', () => {
    expect(
      scoreSentence({
        homeTeamName: 'Lions',
        awayTeamName: 'Tigers',
        homeScore: 3,
        awayScore: 1,
        gamePeriod: 'Q2',
      }),
    ).toBe('Lions 3, Tigers 1, Q2.');
  });

  it('says nothing for the score already on screen, then throttles changes', () => {
    const t = new AnnounceThrottle('a');
    expect(t.next('a', 0)).toBeNull();
    expect(t.next('b', 1000)).toBe(0);
    t.spoken('b', 1000);
    expect(t.next('b', 1500)).toBeNull();
    expect(t.next('c', 2000)).toBe(4000);
    expect(t.next('c', 7000)).toBe(0);
  });
});
