import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
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
 * A web build folder for a test file's server: `files` (index.html at least) and the real SSR
 * bundle, built once for the file from apps/web with its own config (vite.ssr.config.ts, as
 * `npm run build` does) into `ssrDir`; removed after the file. The answer names the folder once
 * the build has run, so read it in a useTestApp options function.
 */
export function useSsrBundle(files: Record<string, string>, ssrDir = '.ssr'): () => string {
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-ssr-'));
    writeFiles(dir, files);
    await build({
      root: WEB_ROOT,
      configFile: path.join(WEB_ROOT, 'vite.ssr.config.ts'),
      logLevel: 'silent',
      build: { outDir: path.join(dir, ssrDir) },
    });
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
