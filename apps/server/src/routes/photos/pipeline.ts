import type Sharp from 'sharp';
import { HttpError } from '../../lib/http-errors.ts';

// DESIGN §5 photo pipeline. Limits are generous for phone photos and small for a server.
export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
/** A decompression bomb (a tiny file that decodes to gigapixels) is refused before decoding. */
const MAX_INPUT_PIXELS = 40_000_000;
const MAX_PHOTO_SIDE = 1024;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

/**
 * sharp and its native image library load with the first photo, not at start: most of a
 * server's life passes without one, and loading them costs a start time and resident memory.
 */
let sharpLoaded: Promise<typeof Sharp> | undefined;
function loadSharp(): Promise<typeof Sharp> {
  sharpLoaded ??= import('sharp').then((m) => m.default);
  return sharpLoaded;
}

/**
 * Checks the bytes really are a raster image (SVG, HTML and the like are refused: an SVG can
 * carry script), re-encodes to a bounded JPEG and drops every bit of metadata: sharp writes
 * none unless asked, and we never ask, so the GPS position of a child's photo cannot leak.
 */
export async function processPhoto(input: Buffer): Promise<Buffer> {
  if (input.length > MAX_PHOTO_BYTES) throw new HttpError(413, 'The picture is too large');
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    format = meta.format;
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
      throw new HttpError(413, 'The picture has too many pixels');
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (/pixel limit/i.test((err as Error).message)) {
      throw new HttpError(413, 'The picture has too many pixels');
    }
    throw new HttpError(415, 'That file is not a picture we can read');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) {
    throw new HttpError(415, 'Please choose a JPEG, PNG, WebP, GIF or HEIC picture');
  }
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate() // apply the EXIF orientation before the EXIF is dropped
      .resize(MAX_PHOTO_SIDE, MAX_PHOTO_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch {
    throw new HttpError(415, 'That file is not a picture we can read');
  }
}

/**
 * A rendition of a stored photo at `width` pixels wide (never wider than the photo), as WebP:
 * fewer bytes than JPEG for the same look, and every browser we serve reads it.
 * The stored photo is already ours (re-encoded, no metadata), and so is what this makes.
 */
export async function renderWidth(jpeg: Buffer, width: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(jpeg, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
}

/** Decodes a `data:image/...;base64,` URL as the original app sent it. */
export function decodeDataUrl(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  const head = dataUrl.slice(0, comma);
  if (!/^data:image\/[\w.+-]+;base64$/.test(head)) {
    throw new HttpError(415, 'Please choose a picture file');
  }
  return Buffer.from(dataUrl.slice(comma + 1), 'base64');
}
