import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPostgres, pgliteDb } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { pgliteStatements } from '../src/db/pglite-prepared.ts';
import { freshDatabase } from '../../../scripts/lib/postgres.ts';

/**
 * A new PGlite runs initdb in WebAssembly (seconds of CPU) and then every migration; the
 * integration files open dozens of databases. They start instead from one migrated data folder,
 * made here once per run, and loaded in a fraction of that time.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const pglite = new PGlite();
  await pglite.waitReady;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-pglite-template-'));
  const save = async (name: string) => {
    const file = path.join(dir, name);
    const tarball = await pglite.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    return file;
  };
  // The empty one too: tests that migrate step by step start from it, not from a new initdb.
  project.provide('pgliteEmptyTemplate', await save('empty.tar'));
  await migrate(pgliteDb(pglite, pgliteStatements(pglite)));
  project.provide('pgliteTemplate', await save('migrated.tar'));
  await pglite.close();
  // Where ssr-bundle.ts keeps the SSR bundle once a file has built it.
  project.provide('ssrBundleCache', fs.mkdtempSync(path.join(dir, 'ssr-')));
  const dropPostgresTemplate = await postgresTemplate(project);
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await dropPostgresTemplate();
  };
}

/**
 * The same on PostgreSQL, when the run has one: a migrated database that each file's database
 * is copied from (CREATE DATABASE … TEMPLATE), instead of running every migration again.
 */
async function postgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return async () => undefined;
  const template = await freshDatabase(adminUrl, 'sagan_template');
  // Closed before any copy: PostgreSQL copies no database that has a connection.
  const db = await openPostgres(template.url);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('postgresTemplate', new URL(template.url).pathname.slice(1));
  return template.drop;
}
