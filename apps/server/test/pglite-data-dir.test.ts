import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';

const MIGRATIONS = fs
  .readdirSync(path.resolve(import.meta.dirname, '../src/db/migrations'))
  .filter((f) => /^\d{4}_.+\.sql$/.test(f))
  .map((f) => f.replace(/\.sql$/, ''))
  .sort();

// A new data folder is created and migrated in a process that exits (db.ts initdbOnce), so the
// peak of that work does not stay in the server: the server's own migrate finds nothing to do.
describe('a new PGlite data folder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-new-folder-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('comes back created and fully migrated, and opens again as it was left', async () => {
    const db = await openPglite(dir);
    try {
      const rows = await db.query<{ version: string }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS);
      expect(await migrate(db)).toEqual([]);
      await db.query('CREATE TABLE folder_kept (name text)');
      await db.query("INSERT INTO folder_kept VALUES ('kept')");
    } finally {
      await db.close();
    }
    const again = await openPglite(dir);
    try {
      expect(await migrate(again)).toEqual([]);
      expect(await again.query('SELECT name FROM folder_kept')).toEqual([{ name: 'kept' }]);
    } finally {
      await again.close();
    }
  }, 300_000);
});
