import { API_PATH } from './http-paths.ts';

// A player photo's renditions (DESIGN §5): the widths the server makes of a stored photo, so a
// phone fetches one sized for its screen, not the whole photo. No zod here: the pages that show
// photos build their srcset from this file, and the fan's pages stay free of zod.

/** The widths a photo is offered at, in pixels; never larger than the stored photo itself. */
export const PHOTO_WIDTHS = [160, 320, 640, 1280] as const;
export type PhotoWidth = (typeof PHOTO_WIDTHS)[number];

/**
 * The srcset and sizes of one of our photo URLs (`…/photo?v=…`) shown `height` CSS pixels
 * tall, or undefined for any other image (an imported external URL, the missing-avatar
 * picture): only our photo routes make renditions. The photo's shape is not known before it
 * loads, so `sizes` says how wide a 4:3 photo of that height is, within a phone's page padding
 * (16px a side): a portrait photo is shown narrower, a wider one a little softer.
 */
export function photoSources(
  url: string,
  height: number,
): { srcSet: string; sizes: string } | undefined {
  if (!url.startsWith(`${API_PATH}/`) || !/\/photo(\?|$)/.test(url)) return undefined;
  const join = url.includes('?') ? '&' : '?';
  const w = Math.round((height * 4) / 3);
  return {
    srcSet: PHOTO_WIDTHS.map((pw) => `${url}${join}w=${pw} ${pw}w`).join(', '),
    sizes: `(max-width: ${w + 32}px) calc(100vw - 32px), ${w}px`,
  };
}
