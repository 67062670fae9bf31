import { describe, expect, it } from 'vitest';
import { keyInPath } from './keys.ts';

describe('keyInPath', () => {
  it('reads a key as a path names it, percent-encoded or not', () => {
    expect(keyInPath('-Nx1_aB9')).toBe('-Nx1_aB9');
    expect(keyInPath('%2DNx1_aB9')).toBe('-Nx1_aB9');
  });

  it('is null for what is no key: nothing, a broken escape, a slash, too long', () => {
    for (const raw of [undefined, '', '%E0%A4%A', 'a%2Fb', 'x'.repeat(65)]) {
      expect(keyInPath(raw)).toBeNull();
    }
  });
});
