import { z } from 'zod';
import { PHOTO_WIDTHS, type PhotoWidth } from './photo-widths.ts';

/**
 * The query of every photo route: `v` only changes the URL when the photo changes (the server
 * ignores it); `w` asks for a rendition of that width, one of PHOTO_WIDTHS.
 */
export const photoQuerySchema = z.object({
  v: z.string().max(64).optional(),
  w: z
    .enum(PHOTO_WIDTHS.map(String) as [`${PhotoWidth}`, ...`${PhotoWidth}`[]], {
      error: `must be one of ${PHOTO_WIDTHS.join(', ')}`,
    })
    .transform((w) => Number(w) as PhotoWidth)
    .optional(),
});
