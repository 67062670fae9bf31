import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import type { Queryable } from '../../db/db.ts';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';

// DESIGN §5 photo pipeline. Limits are generous for phone photos and small for a server.
export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
/** A decompression bomb (a tiny file that decodes to gigapixels) is refused before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000;
export const MAX_PHOTO_SIDE = 1024;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
export const PHOTO_URL_PREFIX = '/apps/sagan/api/photos/';
const FILE_RE = /^[A-Za-z0-9_-]{10,64}\.jpg$/;

/**
 * Checks the bytes really are a raster image (SVG, HTML and the like are refused: an SVG can
 * carry script), re-encodes to a bounded JPEG and drops every bit of metadata: sharp writes
 * none unless asked, and we never ask, so the GPS position of a child's photo cannot leak.
 */
export async function processPhoto(input: Buffer): Promise<Buffer> {
  if (input.length > MAX_PHOTO_BYTES) throw new HttpError(413, 'The picture is too large');
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

/** Decodes a `data:image/...;base64,` URL as the original app sent it. */
export function decodeDataUrl(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  const head = dataUrl.slice(0, comma);
  if (!/^data:image\/[\w.+-]+;base64$/.test(head)) {
    throw new HttpError(415, 'Please choose a picture file');
  }
  return Buffer.from(dataUrl.slice(comma + 1), 'base64');
}

export class PhotoStore {
  constructor(readonly dir: string) {}

  /** Writes a new file (a fresh name each time, so served files never change). */
  async save(jpeg: Buffer): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true });
    const file = `${newKey()}.jpg`;
    const tmp = path.join(this.dir, `.${file}.tmp`);
    await fs.writeFile(tmp, jpeg);
    await fs.rename(tmp, path.join(this.dir, file));
    return `${PHOTO_URL_PREFIX}${file}`;
  }

  async read(file: string): Promise<Buffer | null> {
    if (!FILE_RE.test(file)) return null;
    try {
      return await fs.readFile(path.join(this.dir, file));
    } catch {
      return null;
    }
  }

  async remove(url: string): Promise<void> {
    const file = fileOf(url);
    if (file) await fs.rm(path.join(this.dir, file), { force: true });
  }

  /**
   * Deletes a photo nobody refers to any more: no player, and no published copy (a public
   * sheet keeps showing a photo until it is republished).
   */
  async release(q: Queryable, urls: Iterable<string>): Promise<void> {
    for (const url of new Set(urls)) {
      const file = fileOf(url);
      if (!file) continue;
      const used = await q.query(
        `SELECT 1 FROM players WHERE image_url = $1
         UNION ALL SELECT 1 FROM rosters WHERE strpos(sheet::text, $2) > 0 LIMIT 1`,
        [url, file],
      );
      if (!used.length) await this.remove(url);
    }
  }
}

function fileOf(url: string): string | null {
  if (!url.startsWith(PHOTO_URL_PREFIX)) return null;
  const file = url.slice(PHOTO_URL_PREFIX.length);
  return FILE_RE.test(file) ? file : null;
}

export function photoRoutes(fastify: FastifyInstance, store: PhotoStore): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/photos/:file',
    {
      schema: {
        tags: ['teamsheets'],
        summary: 'A player photo (JPEG, metadata stripped)',
        params: z.object({ file: z.string().max(80) }),
      },
    },
    async (req, reply) => {
      const bytes = await store.read(req.params.file);
      if (!bytes) throw notFound('Photo not found');
      return reply
        .header('content-type', 'image/jpeg')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(bytes);
    },
  );
}
