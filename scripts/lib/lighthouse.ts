// Lighthouse (npm) against pages on loopback in Debian's Chromium: how the page audit of
// `npm test` (scripts/page-audit.ts, smoke level) and `npm run bench:web` (the full table, the
// median of several loads a page) start the browser and load a page.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import lighthouse, { type Flags } from 'lighthouse';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What every load gathers and every score reads, the same for both (Lighthouse refuses to audit
 * with settings other than those it gathered with): the four categories (PWA is gone from
 * Lighthouse 12), less two steps no category score reads, which cost seconds of each load on a
 * 2-core machine: the full-page screenshot (a picture for the HTML report) and the back/forward
 * cache test (a navigation away and back; its audit weighs 0 in performance).
 */
export const LOAD_SETTINGS = {
  onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  disableFullPageScreenshot: true,
  skipAudits: ['bf-cache'],
};

/** Debian's Chromium, headless, with its DevTools port for Lighthouse. */
export function startChromium(profile: string): Promise<{ proc: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      CHROMIUM,
      [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${err}`)));
  });
}

/**
 * One load of the page (mobile defaults), its artifacts saved in dir, scored at the defaults:
 * LOAD_SETTINGS's, or narrower ones a caller reads less of.
 * A load whose trace Chromium failed to record (NO_NAVSTART and the like, seen on a loaded
 * machine) measured nothing, so it is made again, up to three times in all; a result, good or
 * bad, is never made again here.
 */
export async function gatherAndScore(
  url: string,
  port: number,
  dir: string,
  settings: Flags = LOAD_SETTINGS,
) {
  for (let attempt = 1; ; attempt++) {
    fs.rmSync(dir, { recursive: true, force: true });
    await lighthouse(url, {
      port,
      logLevel: 'error',
      gatherMode: dir,
      ...settings,
    });
    const result = await lighthouse(url, {
      output: 'json',
      logLevel: 'error',
      auditMode: dir,
      ...settings,
    });
    if (!result) throw new Error(`${url}: no Lighthouse result`);
    const { lhr } = result;
    // Lighthouse may also finish with audits it could not compute: its trace engine has thrown
    // on a trace taken on a very busy host ("Cannot read properties of undefined (reading
    // 'url')" in its Lantern graph), leaving those audits' and their categories' scores null.
    // That says nothing of the page, only that this load was not measured: as a runtime error.
    const failedAudit = Object.values(lhr.audits).find((a) => a.errorMessage);
    const unscored = Object.values(lhr.categories).some((c) => c.score === null);
    const why =
      lhr.runtimeError?.message ??
      (unscored ? `an audit failed: ${failedAudit?.id}: ${failedAudit?.errorMessage}` : undefined);
    if (why === undefined) return lhr;
    if (attempt >= 3) throw new Error(`${url}: ${why}`);
    console.log(`  ${url}: Lighthouse could not record (${why}); again`);
  }
}

type Lhr = Awaited<ReturnType<typeof gatherAndScore>>;

/** Bytes on the wire of one load, by Lighthouse's own count (all, or one resource type). */
export function transferBytes(lhr: Lhr, type?: string): number {
  const items = (lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined)
    ?.items as { resourceType?: string; transferSize?: number }[] | undefined;
  return (items ?? [])
    .filter((i) => type === undefined || i.resourceType === type)
    .reduce((a, i) => a + (i.transferSize ?? 0), 0);
}
