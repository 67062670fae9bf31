import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type Sharp from 'sharp';
import { keySchema } from '@sagan/shared/keys';
import { API_PATH } from '@sagan/shared/http';
import type { Queryable } from './db/db.ts';
import { HttpError } from './lib/http-errors.ts';
import { newKey, sha256 } from './lib/keys.ts';

// DESIGN §5 photo pipeline. Limits are generous for phone photos and small for a server.
export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
/** A decompression bomb (a tiny file that decodes to gigapixels) is refused before decoding. */
const MAX_INPUT_PIXELS = 40_000_000;
const MAX_PHOTO_SIDE = 1024;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/** Where photos were served before they got internal ids; such URLs are still recognised. */
const LEGACY_PHOTO_PREFIX = `${API_PATH}/photos/`;
const ID_RE = /^[A-Za-z0-9_-]{10,64}$/;

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

/** Decodes a `data:image/...;base64,` URL as the original app sent it. */
export function decodeDataUrl(dataUrl: string): Buffer {
  const comma = dataUrl.indexOf(',');
  const head = dataUrl.slice(0, comma);
  if (!/^data:image\/[\w.+-]+;base64$/.test(head)) {
    throw new HttpError(415, 'Please choose a picture file');
  }
  return Buffer.from(dataUrl.slice(comma + 1), 'base64');
}

/**
 * A photo's id is internal: nothing serves a file by its id. Every public or private URL names
 * a sheet (or play count) and a player, and is checked against their current state on each
 * request, so revoking a photo (unpublish, hide photos, delete the player) takes effect at once.
 * The `v` query only changes when the photo does, so a page shows a new photo without reload.
 */
const version = (photoId: string) => sha256(photoId).slice(0, 12);

export const ownerPhotoPath = (teamKey: string, playerKey: string, photoId: string) =>
  `${API_PATH}/teams/${teamKey}/players/${playerKey}/photo?v=${version(photoId)}`;

export const publicPhotoPath = (publishedAsKey: string, playerKey: string, photoId: string) =>
  `${API_PATH}/rosters/${publishedAsKey}/players/${playerKey}/photo?v=${version(photoId)}`;

const playCountPhotoPath = (gameKey: string, playerKey: string) =>
  `${API_PATH}/playcounts/${gameKey}/players/${playerKey}/photo`;

/** A shared play count's player photo, reached through its link (DESIGN §9 Photos). */
export const sharedPhotoPath = (shareKey: string, playerKey: string) =>
  `${API_PATH}/playcount-shares/${shareKey}/players/${playerKey}/photo`;

/** What a stored image URL points at, when it is one of ours (a relative path). */
export type PhotoRef =
  | { kind: 'team'; teamKey: string; playerKey: string }
  | { kind: 'roster'; publishedAsKey: string; playerKey: string }
  | { kind: 'playcount'; gameKey: string; playerKey: string }
  | { kind: 'legacy'; photoId: string };

const KEY = '([A-Za-z0-9_-]{1,64})';
const REF_PATTERNS: [RegExp, (m: RegExpExecArray) => PhotoRef][] = [
  [
    new RegExp(`^${API_PATH}/teams/${KEY}/players/${KEY}/photo$`),
    (m) => ({ kind: 'team', teamKey: m[1]!, playerKey: m[2]! }),
  ],
  [
    new RegExp(`^${API_PATH}/rosters/${KEY}/players/${KEY}/photo$`),
    (m) => ({ kind: 'roster', publishedAsKey: m[1]!, playerKey: m[2]! }),
  ],
  [
    new RegExp(`^${API_PATH}/playcounts/${KEY}/players/${KEY}/photo$`),
    (m) => ({ kind: 'playcount', gameKey: m[1]!, playerKey: m[2]! }),
  ],
  [
    new RegExp(`^${LEGACY_PHOTO_PREFIX}([A-Za-z0-9_-]{10,64})\\.jpg$`),
    (m) => ({ kind: 'legacy', photoId: m[1]! }),
  ],
];

export function parsePhotoRef(url: string | undefined): PhotoRef | null {
  if (!url?.startsWith(`${API_PATH}/`)) return null;
  const pathOnly = url.replace(/\?.*$/, '');
  for (const [re, make] of REF_PATTERNS) {
    const m = re.exec(pathOnly);
    if (m) return make(m);
  }
  return null;
}

/**
 * Backups under way, by photo folder, each with the files deleted while it copies. A deletion
 * then removes the row at once (the photo stops answering) and the file once every backup has
 * copied it: the backup's moment may still hold the photo. Per process: every store of one
 * folder in this server shares it.
 */
const backupsUnderWay = new Map<string, Set<Set<string>>>();

export class PhotoStore {
  constructor(readonly dir: string) {}

  /**
   * Defers every photo file deletion in this process until the returned release is called,
   * which removes those files. Call it before the backup's moment, release once copied.
   */
  holdDeletions(): () => Promise<void> {
    const deferred = new Set<string>();
    const holds = backupsUnderWay.get(this.dir) ?? new Set();
    holds.add(deferred);
    backupsUnderWay.set(this.dir, holds);
    return async () => {
      holds.delete(deferred);
      if (!holds.size) backupsUnderWay.delete(this.dir);
      for (const photoId of deferred) await this.removeFile(photoId);
    };
  }

  private file(photoId: string): string | null {
    return ID_RE.test(photoId) ? path.join(this.dir, `${photoId}.jpg`) : null;
  }

  /**
   * Writes the file and records whose it is, in the caller's transaction (so a failed
   * transaction leaves only a file, which the start-up sweep removes).
   */
  async save(q: Queryable, uid: string, jpeg: Buffer): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true });
    const photoId = newKey();
    const tmp = path.join(this.dir, `.${photoId}.jpg.tmp`);
    await fs.writeFile(tmp, jpeg);
    await fs.rename(tmp, path.join(this.dir, `${photoId}.jpg`));
    await q.query('INSERT INTO photos (id, uid) VALUES ($1, $2)', [photoId, uid]);
    return photoId;
  }

  async read(photoId: string): Promise<Buffer | null> {
    const file = this.file(photoId);
    if (!file) return null;
    try {
      return await fs.readFile(file);
    } catch {
      return null;
    }
  }

  async exists(photoId: string): Promise<boolean> {
    const file = this.file(photoId);
    return file
      ? fs.stat(file).then(
          () => true,
          () => false,
        )
      : false;
  }

  /** Removes a photo's file, or has the backups under way remove it once they have copied. */
  async removeFile(photoId: string): Promise<void> {
    const file = this.file(photoId);
    if (!file) return;
    const holds = backupsUnderWay.get(this.dir);
    if (holds?.size) {
      for (const deferred of holds) deferred.add(photoId);
      return;
    }
    await fs.rm(file, { force: true });
  }

  /** Deletes photos no player refers to any more (their row and their file). */
  async release(q: Queryable, photoIds: Iterable<string | null | undefined>): Promise<void> {
    for (const photoId of new Set(photoIds)) {
      if (!photoId) continue;
      const gone = await q.query(
        `DELETE FROM photos WHERE id = $1
           AND NOT EXISTS (SELECT 1 FROM players WHERE photo_id = $1) RETURNING id`,
        [photoId],
      );
      if (gone.length) await this.removeFile(photoId);
    }
  }

  /**
   * At start: drops photo rows no player refers to, and files with no row (an upload whose
   * transaction failed, a crash mid-write, files of the old public store nobody claimed).
   * Files younger than a few minutes are left alone: another node may be mid-upload.
   */
  async sweep(q: Queryable, log: FastifyBaseLogger): Promise<void> {
    const dropped = await q.query<{ id: string }>(
      `DELETE FROM photos ph WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.photo_id = ph.id)
       RETURNING id`,
    );
    for (const { id } of dropped) await this.removeFile(id);
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return; // no photo yet
    }
    const known = new Set(
      (await q.query<{ id: string }>('SELECT id FROM photos')).map((r) => r.id),
    );
    const cutoff = Date.now() - 10 * 60_000;
    let removed = 0;
    for (const name of names) {
      const id = /^\.?([A-Za-z0-9_-]{10,64})\.jpg(\.tmp)?$/.exec(name)?.[1];
      if (!id || (known.has(id) && !name.endsWith('.tmp'))) continue;
      const full = path.join(this.dir, name);
      const stat = await fs.stat(full).catch(() => null);
      if (!stat || stat.mtimeMs > cutoff) continue;
      await fs.rm(full, { force: true });
      removed++;
    }
    if (removed || dropped.length) {
      log.info({ files: removed, rows: dropped.length }, 'photos: removed orphans');
    }
  }
}

export const photoStoreOf = (dataDir: string) => new PhotoStore(path.join(dataDir, 'photos'));

/**
 * The photo a published sheet shows for a player, checked against the sheet as it is now:
 * still published under that key, photos not hidden, the public copy lists the player with a
 * photo, and the player still exists with one.
 */
export async function publicPhotoId(
  q: Queryable,
  publishedAsKey: string,
  playerKey: string,
): Promise<string | null> {
  const rows = await q.query<{ photo_id: string }>(
    `SELECT p.photo_id FROM rosters r
       JOIN teams t ON t.team_key = r.team_key AND t.published_as_key = r.published_as_key
       JOIN players p ON p.team_key = t.team_key AND p.player_key = $2
      WHERE r.published_as_key = $1 AND NOT t.public_hide_photos AND p.photo_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(r.sheet->'roster') e
                     WHERE e->>'key' = $2 AND coalesce(e->>'imageURL', '') <> '')`,
    [publishedAsKey, playerKey],
  );
  return rows[0]?.photo_id ?? null;
}

/** The photo of a player on a sheet uid owns. */
export async function ownerPhotoId(
  q: Queryable,
  uid: string,
  teamKey: string,
  playerKey: string,
): Promise<string | null> {
  const rows = await q.query<{ photo_id: string | null }>(
    `SELECT p.photo_id FROM players p JOIN teams t ON t.team_key = p.team_key
      WHERE p.team_key = $1 AND p.player_key = $2 AND t.uid = $3`,
    [teamKey, playerKey, uid],
  );
  return rows[0]?.photo_id ?? null;
}

/**
 * The photo a stored image URL stands for, seen by uid: their own sheets' players, a published
 * sheet's players under its public rules, their own photos by a pre-migration URL.
 */
async function photoIdOfRef(
  q: Queryable,
  uid: string,
  ref: PhotoRef | null,
): Promise<string | null> {
  switch (ref?.kind) {
    case 'team':
      return ownerPhotoId(q, uid, ref.teamKey, ref.playerKey);
    case 'roster': {
      const own = await q.query<{ photo_id: string | null }>(
        `SELECT p.photo_id FROM teams t JOIN players p ON p.team_key = t.team_key
          WHERE t.published_as_key = $1 AND p.player_key = $2 AND t.uid = $3`,
        [ref.publishedAsKey, ref.playerKey, uid],
      );
      if (own[0]) return own[0].photo_id;
      return publicPhotoId(q, ref.publishedAsKey, ref.playerKey);
    }
    case 'legacy': {
      const rows = await q.query<{ id: string }>(
        'SELECT id FROM photos WHERE id = $1 AND uid = $2',
        [ref.photoId, uid],
      );
      return rows[0]?.id ?? null;
    }
    default:
      // A play count's own URL is never stored (the PUT keeps what it stood for).
      return null;
  }
}

/**
 * The photo of a play count's player, for the play count's owner: the image URL stored in its
 * roster, resolved as that owner sees it. (A shared link can call it with the owner's uid.)
 */
export async function playCountPhotoId(
  q: Queryable,
  uid: string,
  gameKey: string,
  playerKey: string,
): Promise<string | null> {
  const rows = await q.query<{ url: string | null }>(
    `SELECT e->>'imageURL' AS url
       FROM play_count_games g, jsonb_array_elements(g.game->'roster') e
      WHERE g.game_key = $1 AND g.uid = $2 AND e->>'key' = $3 LIMIT 1`,
    [gameKey, uid, playerKey],
  );
  return photoIdOfRef(q, uid, parsePhotoRef(rows[0]?.url ?? undefined));
}

/** The roster image URL a client should use: ours become the play count's own photo path. */
export function playCountImageUrl(gameKey: string, key: string, url: string | undefined) {
  if (!parsePhotoRef(url)) return url;
  return keySchema.safeParse(key).success ? playCountPhotoPath(gameKey, key) : '';
}

/** A photo that is not there, or not any more: never cached, so a revocation is final. */
function sendNoPhoto(reply: FastifyReply): FastifyReply {
  return reply.code(404).header('cache-control', 'no-store').send({ error: 'Photo not found' });
}

/**
 * Sends a photo with a validator: caches may keep it but must ask again each time (no-cache),
 * and get a 304 while it is unchanged, or the 404 once it is revoked.
 */
export async function sendPhoto(
  req: FastifyRequest,
  reply: FastifyReply,
  store: PhotoStore,
  photoId: string | null,
  visibility: 'public' | 'private',
): Promise<FastifyReply> {
  if (!photoId) return sendNoPhoto(reply);
  const etag = `"${sha256(`photo:${photoId}`).slice(0, 32)}"`;
  reply
    .header('cache-control', `${visibility}, no-cache`)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff')
    .header('x-robots-tag', 'noindex');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    if (await store.exists(photoId)) return reply.code(304).send();
  }
  const bytes = await store.read(photoId);
  if (!bytes) return sendNoPhoto(reply.removeHeader('etag'));
  return reply.header('content-type', 'image/jpeg').send(bytes);
}
