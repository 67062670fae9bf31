import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/db.ts';
import { PHOTO_WIDTHS, type PhotoWidth } from '@sagan/shared/photo-widths';
import { newKey } from '../../lib/keys.ts';
import { renderWidth } from './pipeline.ts';
import { deleteUnusedPhoto, deleteUnusedPhotos, insertPhoto, knownPhotoIds } from './repo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** DESIGN §5: the photos on local disk under the data folder, one store per server. */
    photoStore: PhotoStore;
  }
}

const ID_RE = /^[A-Za-z0-9_-]{10,64}$/;
/** A photo's file or one of its renditions, or either's temporary file mid-write. */
const FILE_RE = /^\.?([A-Za-z0-9_-]{10,64})(?:\.jpg|\.w\d+\.webp)(\.tmp)?$/;
const renditionName = (photoId: string, width: number) => `${photoId}.w${width}.webp`;

/**
 * Backups under way, by photo folder, each with the files deleted while it copies. A deletion
 * then removes the row at once (the photo stops answering) and the file once every backup has
 * copied it: the backup's moment may still hold the photo. Per process: every store of one
 * folder in this server shares it.
 */
const backupsUnderWay = new Map<string, Set<Set<string>>>();

export class PhotoStore {
  constructor(readonly dir: string) {}

  /** Renditions being made, so that viewers arriving together make each one once. */
  private readonly making = new Map<string, Promise<Buffer | null>>();

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
    await insertPhoto(q, photoId, uid);
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

  /**
   * The photo at `width` pixels wide: made from the photo on first request and kept beside it
   * (a backup copies only the photos; a restored server makes the renditions again). Null when
   * the photo's file is not there.
   */
  async rendition(photoId: string, width: PhotoWidth): Promise<Buffer | null> {
    if (!ID_RE.test(photoId)) return null;
    const name = renditionName(photoId, width);
    const kept = await fs.readFile(path.join(this.dir, name)).catch(() => null);
    if (kept) return kept;
    let made = this.making.get(name);
    if (!made) {
      made = this.makeRendition(photoId, width).finally(() => this.making.delete(name));
      this.making.set(name, made);
    }
    return made;
  }

  private async makeRendition(photoId: string, width: PhotoWidth): Promise<Buffer | null> {
    const jpeg = await this.read(photoId);
    if (!jpeg) return null;
    const bytes = await renderWidth(jpeg, width);
    const name = renditionName(photoId, width);
    const tmp = path.join(this.dir, `.${name}.tmp`);
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, path.join(this.dir, name));
    return bytes;
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

  /**
   * Removes a photo's file and its renditions, or has the backups under way remove them once
   * they have copied.
   */
  async removeFile(photoId: string): Promise<void> {
    const file = this.file(photoId);
    if (!file) return;
    const holds = backupsUnderWay.get(this.dir);
    if (holds?.size) {
      for (const deferred of holds) deferred.add(photoId);
      return;
    }
    await fs.rm(file, { force: true });
    for (const width of PHOTO_WIDTHS) {
      await fs.rm(path.join(this.dir, renditionName(photoId, width)), { force: true });
    }
  }

  /** Deletes photos no player refers to any more (their row and their file). */
  async release(q: Queryable, photoIds: Iterable<string | null | undefined>): Promise<void> {
    for (const photoId of new Set(photoIds)) {
      if (!photoId) continue;
      if (await deleteUnusedPhoto(q, photoId)) await this.removeFile(photoId);
    }
  }

  /**
   * At start: drops photo rows no player refers to, and files with no row (an upload whose
   * transaction failed, a crash mid-write, files of the old public store nobody claimed).
   * Files younger than a few minutes are left alone: another node may be mid-upload.
   */
  async sweep(q: Queryable, log: FastifyBaseLogger): Promise<void> {
    const dropped = await deleteUnusedPhotos(q);
    for (const id of dropped) await this.removeFile(id);
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return; // no photo yet
    }
    const known = await knownPhotoIds(q);
    const cutoff = Date.now() - 10 * 60_000;
    let removed = 0;
    for (const name of names) {
      const id = FILE_RE.exec(name)?.[1];
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
