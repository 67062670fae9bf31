import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { API_PATH } from '@sagan/shared/http';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openPglite, openPostgres, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { BACKUP_TOKEN_FILE, BACKUP_TOKEN_HEADER } from '../routes/ops/backup.ts';
import { readManifest, restoreBackup, RestoreError } from './restore.ts';
import { takeBackup, type BackupManifest } from './backup.ts';

// `npm run backup -- FILE` and `npm run restore -- FILE`. See docs/deploy.md.

const BACKUP_USAGE = `Usage: npm run backup -- <file.tar>

Writes a backup of this Sagan site (its database at one moment, and the photos) to the file.
Uses the same settings as the server (DATA_DIR, DATABASE_URL, PORT, HOST): a running server
takes the backup itself; with none running, this command does.`;

const RESTORE_USAGE = `Usage: npm run restore -- <file.tar>

Restores a backup into an empty data folder (DATA_DIR) or, with DATABASE_URL, into an empty
PostgreSQL database (photos still go to DATA_DIR). Sessions are not restored: everyone signs in
again. Every table is checked against the backup before it reports success.`;

function configOrExit(): Config | number {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

function fileArg(args: string[], usage: string): string | number {
  if (args.length !== 1 || args[0] === '-h' || args[0] === '--help' || !args[0]) {
    console.error(usage);
    return args.includes('-h') || args.includes('--help') ? 0 : 2;
  }
  return path.resolve(args[0]);
}

/** Asks the server running on this machine for the backup; null when none answers. */
async function backupFromServer(config: Config, out: string): Promise<boolean> {
  let token: string;
  try {
    token = fs.readFileSync(path.join(config.dataDir, BACKUP_TOKEN_FILE), 'utf8');
  } catch {
    return false; // no server has run on this folder since it last stopped
  }
  const host = config.host.includes(':') ? '::1' : '127.0.0.1';
  const res = await new Promise<http.IncomingMessage | null>((resolve, reject) => {
    const req = http.request({
      host,
      port: config.port,
      method: 'POST',
      path: `${API_PATH}/ops/backup`,
      headers: { [BACKUP_TOKEN_HEADER]: token, 'x-sagan-request': '1' },
    });
    req.on('response', resolve);
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNREFUSED' ? resolve(null) : reject(err),
    );
    req.end();
  });
  if (!res) return false;
  if (res.statusCode !== 200) {
    let body = '';
    for await (const chunk of res) body += String(chunk);
    throw new Error(`The running server refused the backup (${res.statusCode}): ${body}`);
  }
  const tmp = `${out}.partial`;
  await pipeline(res, fs.createWriteStream(tmp));
  fs.renameSync(tmp, out);
  return true;
}

function describe(m: BackupManifest): string {
  const rows = Object.values(m.moment.tables).reduce((n, t) => n + t.rows, 0);
  const db =
    m.database === 'pglite' ? `PGlite ${m.pgliteVersion}` : `PostgreSQL ${m.postgresVersion}`;
  return (
    `${Object.keys(m.moment.tables).length} tables (${rows} rows) and ${m.photos} photos, ` +
    `as of ${m.moment.takenAt} (${db}, schema ${m.moment.schemaVersion})`
  );
}

export async function runBackup(args: string[]): Promise<number> {
  const out = fileArg(args, BACKUP_USAGE);
  if (typeof out === 'number') return out;
  const config = configOrExit();
  if (typeof config === 'number') return config;
  if (!(await backupFromServer(config, out))) {
    // No server running: this process opens the database itself (the lock keeps a server that
    // starts meanwhile away from the folder).
    const db: Db = config.databaseUrl
      ? await openPostgres(config.databaseUrl)
      : await openPglite(config.dataDir);
    try {
      await migrate(db);
      await takeBackup({ db, dataDir: config.dataDir, databaseUrl: config.databaseUrl }, out);
    } finally {
      await db.close();
    }
  }
  console.log(`Backed up ${describe(await readManifest(out))} to ${out}`);
  return 0;
}

export async function runRestore(args: string[]): Promise<number> {
  const file = fileArg(args, RESTORE_USAGE);
  if (typeof file === 'number') return file;
  const config = configOrExit();
  if (typeof config === 'number') return config;
  try {
    const report = await restoreBackup(file, {
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
    });
    console.log(
      `Restored ${describe(report.manifest)}; every table matches the backup. ` +
        'Start the server with the same settings.',
    );
    return 0;
  } catch (err) {
    if (err instanceof RestoreError) {
      console.error(err.message);
      return 3;
    }
    throw err;
  }
}
