import { describe, expect, it } from 'vitest';
import { applyPrivacy, initialsOf } from './teamsheet-privacy.ts';

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'A. L.'],
    ['  grace   hopper ', 'G. H.'],
    ['Jean-Luc Picard', 'J. L. P.'],
    ['Zoë', 'Z.'],
    ['"Bo" Jackson', 'B. J.'],
    ['', ''],
  ])('%s → %s', (name, initials) => expect(initialsOf(name)).toBe(initials));
});

describe('applyPrivacy', () => {
  const roster = [{ key: 'a', playerName: 'Ada Lovelace', imageURL: '/p.jpg', jersey: '7' }];
  it('keeps everything when nothing is chosen', () => {
    expect(applyPrivacy(roster, { initialsOnly: false, hidePhotos: false })).toEqual(roster);
  });
  it('replaces names and drops photos as chosen', () => {
    expect(applyPrivacy(roster, { initialsOnly: true, hidePhotos: true })).toEqual([
      { key: 'a', playerName: 'A. L.', imageURL: '', jersey: '7' },
    ]);
  });
});
