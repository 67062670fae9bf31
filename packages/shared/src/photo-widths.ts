import { API_PATH } from './http-paths.ts';

// A player photo's renditions (DESIGN §5): the widths the server makes of a stored photo, so a
// phone fetches one sized for its screen, not the whole photo. No zod here: the player page
// builds its srcset from this file, and the fan's pages stay free of zod.

/** The widths a photo is offered at, in pixels; never larger than the stored photo itself. */
export const PHOTO_WIDTHS = [320, 640, 1280] as const;
export type PhotoWidth = (typeof PHOTO_WIDTHS)[number];

/**
 * The srcset of one of our photo URLs (`…/photo?v=…`), or undefined for any other image (an
 * imported external URL, the missing-avatar picture): only our photo routes make renditions.
 */
export function photoSrcSet(url: string): string | undefined {
  if (!url.startsWith(`${API_PATH}/`) || !/\/photo(\?|$)/.test(url)) return undefined;
  const join = url.includes('?') ? '&' : '?';
  return PHOTO_WIDTHS.map((w) => `${url}${join}w=${w} ${w}w`).join(', ');
}
