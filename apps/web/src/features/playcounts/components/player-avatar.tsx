import { useState } from 'react';
import { photoSources } from '@sagan/shared/photo-widths';

// SPEC §2/§8: a missing or broken player image falls back to the local placeholder.
const MISSING_AVATAR = `${import.meta.env.BASE_URL}img/missingAvatar.jpg`;

/** Only image sources a browser treats as images; anything else is the placeholder. */
function safeSrc(url: string | undefined): string {
  if (!url) return MISSING_AVATAR;
  return /^(https?:\/\/|\/|data:image\/)/i.test(url) ? url : MISSING_AVATAR;
}

export function PlayerAvatar({ imageURL }: { imageURL: string | undefined }) {
  const [failed, setFailed] = useState(false);
  const src = failed ? MISSING_AVATAR : safeSrc(imageURL);
  // Our photos come at a width sized for the 32px avatar, not the whole photo.
  const sources = failed ? undefined : photoSources(src, 32);
  return (
    <img
      className="pc-avatar"
      src={src}
      srcSet={sources?.srcSet}
      sizes={sources?.sizes}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}
