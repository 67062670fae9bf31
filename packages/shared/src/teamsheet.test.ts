import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEAM,
  hasExtension,
  jerseySchema,
  locationLabel,
  nextLocation,
} from './teamsheet.ts';
import { badgeFor, compareJersey, matchesSearch, playerBadges, sortRoster } from './roster-view.ts';

describe('SPEC §4 membership toggle cycle', () => {
  it('Playing → Rested, Sideline → Playing, Rested/none → Sideline', () => {
    expect(nextLocation(1)).toBe(3);
    expect(nextLocation(2)).toBe(1);
    expect(nextLocation(3)).toBe(2);
    expect(nextLocation(0)).toBe(2);
    expect(nextLocation(undefined)).toBe(2);
    expect(nextLocation(null)).toBe(2);
  });

  it('accepts the string codes old data holds', () => {
    expect(nextLocation('1')).toBe(3);
    expect(nextLocation('2')).toBe(1);
  });

  it('an error in lookup sets Playing', () => {
    expect(nextLocation('garbage')).toBe(1);
    expect(nextLocation({})).toBe(1);
    expect(nextLocation(Number.NaN)).toBe(1);
  });

  it('visits every state from none: Sideline, Playing, Rested, Sideline', () => {
    const seen: number[] = [];
    let loc: number | undefined = undefined;
    for (let i = 0; i < 4; i++) {
      loc = nextLocation(loc);
      seen.push(loc);
    }
    expect(seen).toEqual([2, 1, 3, 2]);
  });
});

describe('SPEC §3 location labels', () => {
  it.each([
    [1, 'Playing'],
    [2, 'Sideline'],
    [3, 'Rested'],
    [0, 'Rested'],
    [undefined, 'Rested'],
    [null, 'Rested'],
    [4, 'Unknown'],
    [-1, 'Unknown'],
  ])('%s is %s', (code, label) => {
    expect(locationLabel(code)).toBe(label);
  });
});

describe('SPEC §2 badge rule', () => {
  it('shows only for 1 (playing) and 2', () => {
    expect(badgeFor(1)).toBe('playing');
    expect(badgeFor(2)).toBe('sideline');
    expect(badgeFor('1')).toBe('playing');
    for (const none of [0, 3, 4, undefined, null, 'x']) expect(badgeFor(none)).toBeNull();
  });

  it('lists a player’s badges across groups', () => {
    const groups = [
      { groupKey: 'g1', key: 'g1', groupName: 'Lineup A' },
      { groupKey: 'g2', key: 'g2', groupName: 'Lineup B' },
      { groupKey: 'g3', key: 'g3', groupName: 'Bench' },
    ];
    const membership = {
      g1: { p: { location: 1, playerKey: 'p' } },
      g2: { p: { location: 2, playerKey: 'p' } },
      g3: { p: { location: 3, playerKey: 'p' } },
    };
    expect(playerBadges('p', groups, membership)).toEqual([
      { groupKey: 'g1', groupName: 'Lineup A', style: 'playing' },
      { groupKey: 'g2', groupName: 'Lineup B', style: 'sideline' },
    ]);
    expect(playerBadges('other', groups, membership)).toEqual([]);
  });
});

describe('jersey sort', () => {
  it('numbers in numeric order, letters after', () => {
    const roster = ['10', 'B', '2', 'a', '1', '33', 'GK', '07'].map((jersey) => ({ jersey }));
    expect(sortRoster(roster).map((p) => p.jersey)).toEqual([
      '1',
      '2',
      '07',
      '10',
      '33',
      'a',
      'B',
      'GK',
    ]);
  });

  it('is a consistent order (antisymmetric)', () => {
    expect(compareJersey('9', '10')).toBeLessThan(0);
    expect(compareJersey('10', '9')).toBeGreaterThan(0);
    expect(compareJersey('A', '1')).toBeGreaterThan(0);
  });

  it('does not change the input', () => {
    const roster = [{ jersey: '2' }, { jersey: '1' }];
    sortRoster(roster);
    expect(roster[0]?.jersey).toBe('2');
  });
});

describe('SPEC §5 search', () => {
  it('is a case-insensitive substring on the name; empty shows all', () => {
    expect(matchesSearch('Alex Smith', 'smi')).toBe(true);
    expect(matchesSearch('Alex Smith', 'ALEX')).toBe(true);
    expect(matchesSearch('Alex Smith', 'jones')).toBe(false);
    expect(matchesSearch('Alex Smith', '')).toBe(true);
  });

  it('ignores accents either way round', () => {
    expect(matchesSearch('Zoë Park', 'zoe')).toBe(true);
    expect(matchesSearch('José Ruiz', 'jose')).toBe(true);
    expect(matchesSearch('Siobhán Ní Bhriain', 'siobhan ni')).toBe(true);
    expect(matchesSearch('Zoe Park', 'Zoë')).toBe(true);
    expect(matchesSearch('Łukasz Søren', 'lukasz soren')).toBe(true);
    expect(matchesSearch('Jürgen Weiß', 'weiss')).toBe(true);
    expect(matchesSearch('Zoë Park', 'zoa')).toBe(false);
  });

  it('matches a name typed with combining marks as well as precomposed letters', () => {
    expect(matchesSearch('Zoe\u0308', 'zoë')).toBe(true);
    expect(matchesSearch('Zoë', 'zoe\u0308')).toBe(true);
  });
});

describe('jersey validation', () => {
  it('takes numbers or letters, required', () => {
    expect(jerseySchema.safeParse('12').success).toBe(true);
    expect(jerseySchema.safeParse('GK').success).toBe(true);
    expect(jerseySchema.safeParse('').success).toBe(false);
    expect(jerseySchema.safeParse('1 2').success).toBe(false);
    expect(jerseySchema.safeParse('<b>').success).toBe(false);
  });

  it('SPEC §9 default team', () => {
    expect(DEFAULT_TEAM).toEqual({ teamName: 'New Team', teamNotes: 'Description' });
  });
});

describe('SPEC §5 image picker', () => {
  it('ignores a file name without an extension part', () => {
    expect(hasExtension('photo.jpg')).toBe(true);
    expect(hasExtension('my.photo.png')).toBe(true);
    expect(hasExtension('photo')).toBe(false);
    expect(hasExtension('.jpg')).toBe(false);
  });
});
