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
  await migrate(pgliteDb(pglite));
  const tarball = await pglite.dumpDataDir('none');
  await pglite.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
