import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PhotoWidth } from '@sagan/shared/photo-widths';
import { sha256 } from '../../lib/keys.ts';
import type { PhotoStore } from './store.ts';

/** A photo that is not there, or not any more: never cached, so a revocation is final. */
function sendNoPhoto(reply: FastifyReply): FastifyReply {
  return reply.code(404).header('cache-control', 'no-store').send({ error: 'Photo not found' });
}

/**
 * Sends a photo with a validator: caches may keep it but must ask again each time (no-cache),
 * and get a 304 while it is unchanged, or the 404 once it is revoked. With `width`, its
 * rendition of that width, under the very same answers: only the bytes and their type differ.
 */
export async function sendPhoto(
  req: FastifyRequest,
  reply: FastifyReply,
  store: PhotoStore,
  photoId: string | null,
  visibility: 'public' | 'private',
  width?: PhotoWidth,
): Promise<FastifyReply> {
  if (!photoId) return sendNoPhoto(reply);
  const etag = `"${sha256(width ? `photo:${photoId}:w${width}` : `photo:${photoId}`).slice(0, 32)}"`;
  reply
    .header('cache-control', `${visibility}, no-cache`)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff')
    .header('x-robots-tag', 'noindex');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    if (await store.exists(photoId)) return reply.code(304).send();
  }
  const bytes = width ? await store.rendition(photoId, width) : await store.read(photoId);
  if (!bytes) return sendNoPhoto(reply.removeHeader('etag'));
  return reply.header('content-type', width ? 'image/webp' : 'image/jpeg').send(bytes);
}
