import { describe, expect, it } from 'vitest';
import { API_PATH } from './http-paths.ts';
import { photoSources } from './photo-widths.ts';

describe('photoSources', () => {
  it("offers each width of one of our photo routes, sized for a 4:3 photo's width", () => {
    const url = `${API_PATH}/rosters/abc/players/p1/photo?v=0123456789ab`;
    expect(photoSources(url, 240)).toEqual({
      srcSet: [160, 320, 640, 1280].map((w) => `${url}&w=${w} ${w}w`).join(', '),
      sizes: '(max-width: 352px) calc(100vw - 32px), 320px',
    });
    const bare = `${API_PATH}/playcount-shares/s1/players/p1/photo`;
    expect(photoSources(bare, 32)?.srcSet).toMatch(new RegExp(`^${bare}\\?w=160 160w, `));
    expect(photoSources(bare, 32)?.sizes).toBe('(max-width: 75px) calc(100vw - 32px), 43px');
  });

  it('leaves any other picture alone: it has no renditions', () => {
    for (const url of [
      'https://example.org/kid.jpg',
      '/apps/sagan/img/missingAvatar.jpg',
      `${API_PATH}/photos/abcdefghijkl.jpg`,
      `${API_PATH}/rosters/abc/players/p1/photos`,
      'data:image/png;base64,AAAA',
      '',
    ]) {
      expect(photoSources(url, 240), url).toBeUndefined();
    }
  });
});
