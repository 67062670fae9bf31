import { useState } from 'react';
import { photoSrcSet } from '@sagan/shared/photo-widths';

const MISSING_AVATAR = `${import.meta.env.BASE_URL}img/missingAvatar.jpg`;

/**
 * How wide the main photo is shown, for picking its rendition. Its shape is not known before
 * it loads, so: a 4:3 photo of that height, within a phone's page padding (16px a side).
 * A portrait photo is shown narrower than this, and a wider one a little softer.
 */
const sizesOf = (height: number) => {
  const w = Math.round((height * 4) / 3);
  return `(max-width: ${w + 32}px) calc(100vw - 32px), ${w}px`;
};

/**
 * SPEC §8: a missing or broken photo falls back to the local missing-avatar image. `main`: the
 * page's largest picture (a player's photo), fetched at once and first, not when it scrolls
 * into view, and at a width sized for the screen: it is what the page is painted for
 * (Lighthouse's LCP).
 */
export function Avatar({
  src,
  alt = '',
  size = 40,
  height,
  main = false,
}: {
  src: string;
  alt?: string;
  size?: number;
  height?: number;
  main?: boolean;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = src && failed !== src ? src : MISSING_AVATAR;
  const srcSet = main && url === src ? photoSrcSet(url) : undefined;
  return (
    <img
      className={height ? 'photo' : 'avatar'}
      src={url}
      srcSet={srcSet}
      sizes={srcSet && sizesOf(height ?? size)}
      alt={alt}
      width={height ? undefined : size}
      height={height ?? size}
      loading={main ? 'eager' : 'lazy'}
      fetchPriority={main ? 'high' : undefined}
      onError={() => setFailed(src)}
    />
  );
}
