import { useState } from 'react';

const MISSING_AVATAR = `${import.meta.env.BASE_URL}img/missingAvatar.jpg`;

/** SPEC §8: a missing or broken photo falls back to the local missing-avatar image. */
export function Avatar({
  src,
  alt = '',
  size = 40,
  height,
}: {
  src: string;
  alt?: string;
  size?: number;
  height?: number;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = src && failed !== src ? src : MISSING_AVATAR;
  return (
    <img
      className={height ? 'photo' : 'avatar'}
      src={url}
      alt={alt}
      width={height ? undefined : size}
      height={height ?? size}
      loading="lazy"
      onError={() => setFailed(src)}
    />
  );
}
