import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { build } from 'vite';

const WEB_ROOT = path.resolve(import.meta.dirname, '../../web');

declare module 'vitest' {
  export interface ProvidedContext {
    /** An empty folder for the run's one SSR build (global-setup.ts makes and removes it). */
    ssrBuildDir: string;
  }
}

/** Writes each file (a path inside dir → its text), making the folders on the way. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

let built: Promise<string> | undefined;

/**
 * The real SSR bundle, built from apps/web with its own config (vite.ssr.config.ts, as
 * `npm run build` does) once per run for all the files that need it: five files used to make
 * one each, about 2.5 s of CPU apiece and 20–60 s of waiting on a busy 2-core machine. The
 * worker that makes the lock folder builds; the other waits for its `built` (or `failed`)
 * marker. The sources cannot change during a run, so every file still renders with the code
 * under test.
 */
function ssrBuild(): Promise<string> {
  built ??= (async () => {
    const shared = inject('ssrBuildDir');
    const out = path.join(shared, 'ssr');
    const done = path.join(shared, 'built');
    const failed = path.join(shared, 'failed');
    let builder = true;
    try {
      fs.mkdirSync(path.join(shared, 'lock'));
    } catch {
      builder = false;
    }
    if (builder) {
      try {
        await build({
          root: WEB_ROOT,
          configFile: path.join(WEB_ROOT, 'vite.ssr.config.ts'),
          logLevel: 'silent',
          build: { outDir: out },
        });
      } catch (err) {
        fs.writeFileSync(failed, String(err));
        throw err;
      }
      fs.writeFileSync(done, '');
      return out;
    }
    for (;;) {
      if (fs.existsSync(done)) return out;
      if (fs.existsSync(failed))
        throw new Error(
          `the SSR build failed in the other worker: ${fs.readFileSync(failed, 'utf8')}`,
        );
      await delay(100);
    }
  })();
  return built;
}

/**
 * A web build folder for a test file's server: `files` (index.html at least) and a copy of the
 * run's real SSR bundle in `ssrDir`; removed after the file. The answer names the folder once
 * the copy is made, so read it in a useTestApp options function.
 */
export function useSsrBundle(files: Record<string, string>, ssrDir = '.ssr'): () => string {
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-ssr-'));
    fs.cpSync(await ssrBuild(), path.join(dir, ssrDir), { recursive: true });
    // After the copy: a file's own entry (a wrapper around the real one) replaces the built one.
    writeFiles(dir, files);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
