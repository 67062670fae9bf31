import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { build } from 'vite';

const WEB_ROOT = path.resolve(import.meta.dirname, '../../web');

/** Writes each file (a path inside dir → its text), making the folders on the way. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

/**
 * The real SSR bundle, built from apps/web with its own config (vite.ssr.config.ts, as `npm run
 * build` does) the first time a file asks, into the run's folder (global-setup.ts), and copied
 * from there for every later file: it depends on nothing a file chooses, and a build is seconds
 * of CPU. Two workers asking at once may both build; the first one renamed into place is kept.
 */
async function builtSsrBundle(): Promise<string> {
  const built = path.join(inject('ssrBundleCache'), 'bundle');
  if (fs.existsSync(built)) return built;
  const mine = fs.mkdtempSync(`${built}-`);
  await build({
    root: WEB_ROOT,
    configFile: path.join(WEB_ROOT, 'vite.ssr.config.ts'),
    logLevel: 'silent',
    build: { outDir: mine },
  });
  try {
    fs.renameSync(mine, built);
  } catch (err) {
    // Another worker's build got there first (ENOTEMPTY or EEXIST): the same files.
    if (!fs.existsSync(built)) throw err;
    fs.rmSync(mine, { recursive: true, force: true });
  }
  return built;
}

/**
 * A web build folder for a test file's server: `files` (index.html at least) and the real SSR
 * bundle in `ssrDir`; removed after the file. The answer names the folder once the bundle is
 * there, so read it in a useTestApp options function.
 */
export function useSsrBundle(files: Record<string, string>, ssrDir = '.ssr'): () => string {
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-ssr-'));
    writeFiles(dir, files);
    fs.cpSync(await builtSsrBundle(), path.join(dir, ssrDir), { recursive: true });
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
