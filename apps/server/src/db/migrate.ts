import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url).pathname;

/**
 * Applies the numbered .sql files in order, each once, each in its own transaction. `upTo`
 * (a version such as '0005_privacy') stops after it: a test can then write data as an older
 * release stored it and migrate on.
 */
export async function migrate(db: Db, opts: { upTo?: string } = {}): Promise<string[]> {
  const done = await appliedVersions(db);
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    if (opts.upTo !== undefined && version > opts.upTo) break;
    if (done.has(version)) continue;
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    await db.tx(async (q) => {
      // Serialise concurrent starters on PostgreSQL (two nodes booting at once).
      if (db.kind === 'postgres') await q.query('SELECT pg_advisory_xact_lock(7261001)');
      const again = await q.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (again.length) return;
      for (const statement of splitStatements(sql)) await q.query(statement);
      await q.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    });
    applied.push(version);
  }
  return applied;
}

/**
 * The versions applied so far: one statement on a start with the table there (every start but
 * a new database's), where creating it first would add a round trip and a catalog lookup to
 * each start.
 */
async function appliedVersions(db: Db): Promise<Set<string>> {
  try {
    const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
    return new Set(rows.map((r) => r.version));
  } catch (err) {
    if ((err as { code?: unknown }).code !== UNDEFINED_TABLE) throw err;
  }
  await db.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version text PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  return new Set();
}

const UNDEFINED_TABLE = '42P01';

// Our migrations hold plain DDL separated by ';' at line ends (no functions with bodies).
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
