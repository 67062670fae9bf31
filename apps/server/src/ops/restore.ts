import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { openPglite, openPostgres, pgliteVersion, type Db } from '../db/db.ts';
import { momentOf, tableNames } from '../db/moment.ts';
import { manifestSchema, PARTS, pgBin, type BackupManifest } from './backup.ts';

const run = promisify(execFile);
const gunzip = promisify(zlib.gunzip);

export class RestoreError extends Error {}

interface RestoreTarget {
  /** The data folder: PGlite's database (unless databaseUrl) and the photos go there. */
  dataDir: string;
  /** An empty PostgreSQL database to restore into. */
  databaseUrl?: string;
}

export interface RestoreReport {
  manifest: BackupManifest;
  tables: number;
  photos: number;
}

/** Reads the manifest of a backup file (without unpacking the rest). */
export async function readManifest(file: string): Promise<BackupManifest> {
  let text = '';
  await tar.t({
    file,
    filter: (p) => p === PARTS.manifest,
    onReadEntry: (entry) => {
      entry.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    },
  });
  if (!text) throw new RestoreError(`${file} is not a Sagan backup (no ${PARTS.manifest})`);
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new RestoreError(`${file} has a manifest this Sagan cannot read`);
  return parsed.data;
}

/**
 * Restores a backup into an empty data folder (or an empty PostgreSQL database): the database
 * as it was at the backup's moment, without sessions, and its photos. Then checks every table
 * against the digests the backup recorded; a difference is an error, not a warning.
 */
export async function restoreBackup(file: string, target: RestoreTarget): Promise<RestoreReport> {
  const manifest = await readManifest(file);
  const into = target.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== into) {
    throw new RestoreError(
      into === 'postgres'
        ? 'This backup is of an embedded (PGlite) database: restore it without DATABASE_URL'
        : 'This backup is of a PostgreSQL database: set DATABASE_URL to an empty database',
    );
  }
  if (manifest.database === 'pglite' && manifest.pgliteVersion !== pgliteVersion()) {
    throw new RestoreError(
      `This backup needs PGlite ${manifest.pgliteVersion} (this Sagan has ${pgliteVersion()}): ` +
        'restore it with the Sagan release that took it, then back up again',
    );
  }
  const pgliteDir = path.join(target.dataDir, 'pglite');
  const photoDir = path.join(target.dataDir, 'photos');
  for (const dir of target.databaseUrl ? [photoDir] : [pgliteDir, photoDir]) {
    if (await nonEmpty(dir)) {
      throw new RestoreError(`${dir} is not empty: restore into an empty data folder`);
    }
  }
  await fs.mkdir(target.dataDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(target.dataDir, '.restore-'));
  let db: Db | undefined;
  try {
    await tar.x({ file, cwd: staging });
    if (target.databaseUrl) {
      db = await openPostgres(target.databaseUrl);
      if ((await tableNames(db)).length) {
        throw new RestoreError('The PostgreSQL database is not empty: restore into a new one');
      }
      await run(
        path.join(pgBin(), 'pg_restore'),
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${target.databaseUrl}`,
          path.join(staging, PARTS.postgres),
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
    } else {
      // PGlite's dump is its data folder as a tar: unpacked, it is the database.
      const inner = await gunzip(await fs.readFile(path.join(staging, PARTS.pglite)));
      await fs.writeFile(path.join(staging, 'pglite.tar'), inner);
      await fs.mkdir(pgliteDir, { recursive: true });
      await tar.x({ file: path.join(staging, 'pglite.tar'), cwd: pgliteDir });
      db = await openPglite(target.dataDir);
      await db.query('DELETE FROM sessions');
    }
    const tables = await verify(db, manifest);
    const photos = await restorePhotos(db, path.join(staging, PARTS.photos), photoDir);
    return { manifest, tables, photos };
  } catch (err) {
    await db?.close();
    db = undefined;
    // A restore that failed leaves the folder as empty as it found it, ready for another try.
    if (!target.databaseUrl) await fs.rm(pgliteDir, { recursive: true, force: true });
    await fs.rm(photoDir, { recursive: true, force: true });
    throw err;
  } finally {
    await db?.close();
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function nonEmpty(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length > 0;
  } catch {
    return false;
  }
}

/** Every table as the backup recorded it at its moment, no more tables and no fewer. */
async function verify(db: Db, manifest: BackupManifest): Promise<number> {
  const now = await db.tx((q) => momentOf(q), { snapshot: true });
  const problems: string[] = [];
  const names = new Set([...Object.keys(manifest.moment.tables), ...Object.keys(now.tables)]);
  for (const name of names) {
    const want = manifest.moment.tables[name];
    const got = now.tables[name];
    if (!want) problems.push(`${name}: not in the backup`);
    else if (!got) problems.push(`${name}: missing`);
    else if (want.rows !== got.rows || want.digest !== got.digest) {
      problems.push(`${name}: ${got.rows} rows restored, ${want.rows} backed up, or other values`);
    }
  }
  // The newest entry of each log is the backup's moment: the restore holds exactly up to it.
  for (const [column, want] of Object.entries(manifest.moment.highest ?? {})) {
    const got = now.highest?.[column];
    if (got !== want)
      problems.push(`${column}: highest ${got ?? 'none'}, backed up ${want ?? 'none'}`);
  }
  if (problems.length) {
    throw new RestoreError(
      `The restored database differs from the backup:\n  ${problems.join('\n  ')}`,
    );
  }
  return names.size;
}

/** Copies the photos the restored database holds; a photo it holds without its file is an error. */
async function restorePhotos(db: Db, from: string, to: string): Promise<number> {
  const ids = (await db.query<{ id: string }>('SELECT id FROM photos')).map((r) => r.id);
  await fs.mkdir(to, { recursive: true });
  const missing: string[] = [];
  for (const id of ids) {
    await fs.copyFile(path.join(from, `${id}.jpg`), path.join(to, `${id}.jpg`)).catch(() => {
      missing.push(id);
    });
  }
  if (missing.length) {
    throw new RestoreError(
      `The backup lacks the files of ${missing.length} photo(s): ${missing.join(', ')}`,
    );
  }
  return ids.length;
}
