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
  const roster = [
    {
      key: 'a',
      playerName: 'Ada Lovelace',
      imageURL: '/p.jpg',
      jersey: '7',
      playerNotes: 'EpiPen',
    },
  ];
  it('keeps everything when nothing is chosen', () => {
    const none = { initialsOnly: false, hidePhotos: false, hideNotes: false };
    expect(applyPrivacy(roster, none)).toEqual(roster);
  });
  it('replaces names and drops photos and notes as chosen', () => {
    const all = { initialsOnly: true, hidePhotos: true, hideNotes: true };
    expect(applyPrivacy(roster, all)).toEqual([
      { key: 'a', playerName: 'A. L.', imageURL: '', jersey: '7', playerNotes: '' },
    ]);
  });
});
