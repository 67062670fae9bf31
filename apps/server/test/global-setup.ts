import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { pgliteDb } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';

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
  await migrate(pgliteDb(pglite));
  project.provide('pgliteTemplate', await save('migrated.tar'));
  await pglite.close();
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
