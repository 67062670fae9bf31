import { describe, expect, it } from 'vitest';
import { boardKind, sportName } from './sports.ts';
import { periodStyle, scoreboardPatchSchema } from './scoreboard.ts';

describe('SPEC §3 sport mapping', () => {
  it.each([
    [1, 'Basic'],
    [2, 'Basketball'],
    [3, 'Soccer'],
    [4, 'Aussie Rules'],
    [5, 'Football'],
    [6, 'Volleyball'],
    [7, 'Baseball'],
    [8, 'Tennis'],
    [9, 'Rugby'],
    [10, 'Lacrosse'],
    [11, 'Water Polo'],
    [12, 'HockeyIce'],
    [13, 'Gaelic'],
  ])('sport %i is %s', (id, name) => expect(sportName(id)).toBe(name));

  it.each([0, 14, 99, -1])("unknown id %i is 'New Sport'", (id) =>
    expect(sportName(id)).toBe('New Sport'),
  );

  it.each([1, 3, 9, 11, 12, 0, 14, 1000])('sport %i uses the Basic board', (id) =>
    expect(boardKind(id)).toBe('basic'),
  );

  it.each([
    [2, 'basketball'],
    [4, 'aussie'],
    [13, 'aussie'],
    [5, 'football'],
    [6, 'volleyball'],
    [7, 'baseball'],
    [8, 'tennis'],
    [10, 'lacrosse'],
  ] as const)('sport %i uses the %s board', (id, kind) => expect(boardKind(id)).toBe(kind));
});

describe('SPEC §2 summary card styling (periodStyle)', () => {
  it.each([
    ['Final', 'final'],
    ['final', 'final'],
    ['  FINAL ', 'final'],
    ['Starting Soon', 'starting-soon'],
    ['starting soon', 'starting-soon'],
    ['Q3', 'live'],
    ['Final Four', 'live'],
    ['', 'live'],
  ] as const)('%j is %s', (period, style) => expect(periodStyle(period)).toBe(style));
});

describe('DESIGN §6 scoreboard field types', () => {
  it('accepts any subset of valid fields', () => {
    expect(
      scoreboardPatchSchema.safeParse({ homeScore: 3, base1: true, homeScorePointsTennis: 'AD' })
        .success,
    ).toBe(true);
  });
  it.each([
    [{ homeScore: -1 }],
    [{ homeScore: 1.5 }],
    [{ homeScore: '3' }],
    [{ base1: 'yes' }],
    [{ maxSets: 6 }],
    [{ maxSets: 0 }],
    // A tiebreak counts 1, 2, 3…, so a number of points up to 3 digits is taken; nothing else.
    [{ homeScorePointsTennis: '20A' }],
    [{ homeScorePointsTennis: '1000' }],
    [{ timeStamp: 5 }],
    [{ homeScroe: 1 }],
  ])('refuses %j', (patch) => expect(scoreboardPatchSchema.safeParse(patch).success).toBe(false));
});
