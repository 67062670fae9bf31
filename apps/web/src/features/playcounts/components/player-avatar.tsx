import { useState } from 'react';

// SPEC §2/§8: a missing or broken player image falls back to the local placeholder.
const MISSING_AVATAR = `${import.meta.env.BASE_URL}img/missingAvatar.jpg`;

/** Only image sources a browser treats as images; anything else is the placeholder. */
function safeSrc(url: string | undefined): string {
  if (!url) return MISSING_AVATAR;
  return /^(https?:\/\/|\/|data:image\/)/i.test(url) ? url : MISSING_AVATAR;
}

export function PlayerAvatar({ imageURL }: { imageURL: string | undefined }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      className="pc-avatar"
      src={failed ? MISSING_AVATAR : safeSrc(imageURL)}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}
