import { describe, expect, it } from 'vitest';
import { readTags } from './read-tags.ts';

describe('readTags', () => {
  it('splits on spaces, commas and #, once each', () => {
    expect(readTags(' u12, saturday #u12  #north-side ')).toEqual({
      ok: true,
      names: ['u12', 'saturday', 'north-side'],
    });
  });

  it('names the first word that is no tag', () => {
    expect(readTags('u12 sat!urday 50%')).toEqual({
      ok: false,
      problem: '"sat!urday": tags are letters, numbers, _ and - only.',
    });
  });
});
