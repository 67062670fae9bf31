import { useState } from 'react';
import { photoSources } from '@sagan/shared/photo-widths';

const MISSING_AVATAR = `${import.meta.env.BASE_URL}img/missingAvatar.jpg`;

/**
 * SPEC §8: a missing or broken photo falls back to the local missing-avatar image. `main`: the
 * page's largest picture (a player's photo), fetched at once and first, not when it scrolls
 * into view: it is what the page is painted for (Lighthouse's LCP). Our photos come at a
 * width sized for the screen.
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
  const sources = url === src ? photoSources(url, height ?? size) : undefined;
  return (
    <img
      className={height ? 'photo' : 'avatar'}
      src={url}
      srcSet={sources?.srcSet}
      sizes={sources?.sizes}
      alt={alt}
      width={height ? undefined : size}
      height={height ?? size}
      loading={main ? 'eager' : 'lazy'}
      fetchPriority={main ? 'high' : undefined}
      onError={() => setFailed(src)}
    />
  );
}
