// A new embedded database for a script's server, copied from one created and migrated once:
// on a new folder PGlite's initdb and the migrations took 12 of the e2e server's 17 s to its
// first answer (5 s on a copy), and the page audit and the e2e run each start such a server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openPglite, pgliteVersion } from '../../apps/server/src/db/db.ts';
import { root } from './server.ts';

const MIGRATIONS = path.join(root, 'apps/server/src/db/migrations');

/**
 * Named by what makes the folder: the PGlite release (another may not read its files) and
 * every migration's name and text, so an edited migration never starts from a stale copy.
 */
function templateDir(): string {
  const hash = crypto.createHash('sha256').update(pgliteVersion());
  for (const file of fs.readdirSync(MIGRATIONS).sort()) {
    hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS, file)));
  }
  return path.join(root, '.tmp', `pglite-template-${hash.digest('hex').slice(0, 16)}`);
}

async function ensureTemplate(template: string): Promise<void> {
  if (fs.existsSync(template)) return;
  // Built beside it and renamed into place, so a second script starting at the same moment
  // never copies a half-made folder: one rename wins, the other folder is dropped.
  const building = `${template}.building-${process.pid}`;
  try {
    const db = await openPglite(building, { thread: 'main' });
    await db.close();
    fs.renameSync(building, template);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!(code === 'ENOTEMPTY' || code === 'EEXIST') || !fs.existsSync(template)) throw err;
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}

/** Makes dataDir a new, migrated embedded database (whatever was there before is removed). */
export async function newPgliteDataDir(dataDir: string): Promise<void> {
  const template = templateDir();
  await ensureTemplate(template);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.cpSync(path.join(template, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
}
