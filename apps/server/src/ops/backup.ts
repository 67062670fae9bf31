import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { z } from 'zod';
import { loadPg, type Db } from '../db/db.ts';
import { momentOf, TABLES_NOT_RESTORED } from '../db/moment.ts';
import { photoStoreOf } from '../routes/photos/public.ts';

const run = promisify(execFile);
const gzip = promisify(zlib.gzip);

export const manifestSchema = z.object({
  format: z.literal('sagan-backup'),
  formatVersion: z.literal(1),
  database: z.enum(['pglite', 'postgres']),
  /** PGlite only: the release whose files these are (a restore needs the same one). */
  pgliteVersion: z.string().optional(),
  /** PostgreSQL only: the server the dump was taken from. */
  postgresVersion: z.string().optional(),
  moment: z.object({
    takenAt: z.string(),
    schemaVersion: z.string(),
    tables: z.record(z.string(), z.object({ rows: z.number().int(), digest: z.string() })),
    highest: z.record(z.string(), z.string().nullable()).optional(),
  }),
  /** How long writes waited for the backup (PGlite; PostgreSQL writes never wait). */
  heldMs: z.number(),
  photos: z.number().int(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** Where the archive keeps each part. */
export const PARTS = {
  manifest: 'manifest.json',
  pglite: 'database/pglite.tar.gz',
  postgres: 'database/postgres.dump',
  photos: 'photos',
} as const;

/**
 * The newest PostgreSQL client tools on the machine (PGBIN wins): pg_dump must be at least as
 * new as the server it dumps.
 */
export function pgBin(): string {
  const base = '/usr/lib/postgresql';
  const bin =
    process.env.PGBIN ??
    (existsSync(base)
      ? readdirSync(base)
          .sort((a, b) => Number(a) - Number(b))
          .map((v) => path.join(base, v, 'bin'))
          .at(-1)
      : undefined);
  if (!bin || !existsSync(path.join(bin, 'pg_dump'))) {
    throw new Error(
      `pg_dump not found (looked in ${base}/*/bin); set PGBIN to the folder that holds it`,
    );
  }
  return bin;
}

interface BackupSource {
  db: Db;
  /** The data folder: photos are read from it, and the archive is assembled in it. */
  dataDir: string;
  /** PostgreSQL's URL (pg_dump connects on its own). */
  databaseUrl?: string;
}

/**
 * Writes a backup of the database and the photos to `out`: one tar holding manifest.json, the
 * database (PGlite's data folder, or a pg_dump archive) and photos/. Consistent to one moment:
 * PGlite's copy is taken while no statement runs; PostgreSQL's dump reads one snapshot. Photo
 * files deleted meanwhile stay on disk until the photos are copied.
 */
export async function takeBackup(source: BackupSource, out: string): Promise<BackupManifest> {
  await fs.mkdir(source.dataDir, { recursive: true });
  // Inside the data folder: photos are hard-linked (instant, no copy) onto the same disk.
  const staging = await fs.mkdtemp(path.join(source.dataDir, '.backup-'));
  const store = photoStoreOf(source.dataDir);
  const releaseDeletions = store.holdDeletions();
  try {
    await fs.mkdir(path.join(staging, 'database'));
    const taken =
      source.db.kind === 'pglite'
        ? await dumpPglite(source.db, staging)
        : await dumpPostgres(requireUrl(source.databaseUrl), staging);
    const photos = await linkPhotos(store.dir, path.join(staging, PARTS.photos));
    await releaseDeletions();
    const manifest: BackupManifest = {
      format: 'sagan-backup',
      formatVersion: 1,
      ...taken,
      photos,
    };
    await fs.writeFile(path.join(staging, PARTS.manifest), JSON.stringify(manifest, null, 2));
    const tmp = `${out}.partial`;
    // Loaded with the first backup, not at every start.
    const tar = await import('tar');
    await tar.c({ file: tmp, cwd: staging, portable: true }, [
      PARTS.manifest,
      'database',
      PARTS.photos,
    ]);
    await fs.rename(tmp, out);
    return manifest;
  } finally {
    await releaseDeletions();
    await fs.rm(staging, { recursive: true, force: true });
  }
}

function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('A PostgreSQL backup needs DATABASE_URL');
  return url;
}

async function dumpPglite(
  db: Db,
  staging: string,
): Promise<Omit<BackupManifest, 'format' | 'formatVersion' | 'photos'>> {
  const dump = await db.dumpDataDir();
  // Compressed after the dump, while writes run again, off the event loop.
  await fs.writeFile(path.join(staging, PARTS.pglite), await gzip(dump.tar, { level: 6 }));
  return {
    database: 'pglite',
    pgliteVersion: dump.pgliteVersion,
    moment: dump.moment,
    heldMs: dump.heldMs,
  };
}

async function dumpPostgres(
  url: string,
  staging: string,
): Promise<Omit<BackupManifest, 'format' | 'formatVersion' | 'photos'>> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The digests and pg_dump read this one snapshot, exported to pg_dump's own connection.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [snap] = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows;
    const moment = await momentOf({
      query: async <T>(sql: string, params?: unknown[]) =>
        (await client.query(sql, params)).rows as T[],
    });
    const [ver] = (await client.query<{ v: string }>('SHOW server_version')).rows;
    await run(
      path.join(pgBin(), 'pg_dump'),
      [
        '--format=custom',
        `--snapshot=${snap!.id}`,
        ...TABLES_NOT_RESTORED.map((t) => `--exclude-table-data=${t}`),
        `--file=${path.join(staging, PARTS.postgres)}`,
        `--dbname=${url}`,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    await client.query('COMMIT');
    return { database: 'postgres', postgresVersion: ver?.v, moment, heldMs: 0 };
  } finally {
    await client.end();
  }
}

/** Hard-links every photo file into `to` (copies where links are not possible). */
async function linkPhotos(from: string, to: string): Promise<number> {
  await fs.mkdir(to, { recursive: true });
  let names: string[];
  try {
    names = (await fs.readdir(from)).filter((n) => /^[A-Za-z0-9_-]{10,64}\.jpg$/.test(n));
  } catch {
    return 0; // no photo yet
  }
  for (const name of names) {
    const src = path.join(from, name);
    await fs.link(src, path.join(to, name)).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return; // a file of a transaction that failed meanwhile
      await fs.copyFile(src, path.join(to, name));
    });
  }
  return names.length;
}
