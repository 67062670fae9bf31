import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { belowMinimum, metMinimum } from './playcount-minimum.ts';

describe('minimum plays marking', () => {
  it('marks nobody when no minimum is set', () => {
    expect(metMinimum(0, null)).toBeNull();
    expect(metMinimum(0, undefined)).toBeNull();
    expect(belowMinimum([{ playCount: 0 }], null)).toEqual([]);
  });

  it('a player exactly at the minimum has met it; one below has not', () => {
    expect(metMinimum(8, 8)).toBe(true);
    expect(metMinimum(7, 8)).toBe(false);
    expect(metMinimum(9, 8)).toBe(true);
  });

  it('a minimum of 0 is met by everyone', () => {
    expect(belowMinimum([{ playCount: 0 }, { playCount: 3 }], 0)).toEqual([]);
  });

  it('lists exactly the players under the minimum, in roster order', () => {
    const roster = [
      { key: 'a', playCount: 2 },
      { key: 'b', playCount: 10 },
      { key: 'c', playCount: 4 },
    ];
    expect(belowMinimum(roster, 5).map((p) => p.key)).toEqual(['a', 'c']);
  });

  it('below and met partition the roster for any minimum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(100).map((playCount) => ({ playCount }))),
        fc.nat(100),
        (roster, min) => {
          const below = belowMinimum(roster, min);
          expect(below.every((p) => p.playCount < min)).toBe(true);
          expect(roster.length - below.length).toBe(
            roster.filter((p) => metMinimum(p.playCount, min)).length,
          );
        },
      ),
    );
  });
});
