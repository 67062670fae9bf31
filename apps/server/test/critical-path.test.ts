import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFileReader,
  inlineCriticalPath,
  inlineScriptHashes,
  type BuildFileReader,
} from '../src/critical-path.ts';
import { API, databaseKinds, newGameOf, signInLocal, useTestApp } from './helpers.ts';

// A server-rendered page paints from its own HTML (docs/decisions/0013): styles and the theme
// script inlined, the app's modules started after the first frame.

const THEME = "document.documentElement.setAttribute('data-theme', 'light');";
const CSS = '.board{color:#123}';
const AFTER_PAINT = '/* loader */';

const PAGE = `<!doctype html><html><head>
    <script src="/apps/sagan/theme-init.js"></script>
    <script type="module" crossorigin src="/apps/sagan/assets/index-b.js"></script>
    <link rel="modulepreload" crossorigin href="/apps/sagan/assets/routes-c.js">
    <link rel="stylesheet" crossorigin href="/apps/sagan/assets/index-a.css">
    <link rel="modulepreload" crossorigin href="/apps/sagan/assets/page-d.js">
  </head><body><div id="root"></div></body></html>`;

function reader(files: Record<string, string>): BuildFileReader {
  return (href) => files[href] ?? null;
}

const sha256 = (text: string) =>
  `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;

describe('inlineCriticalPath', () => {
  const all = {
    '/apps/sagan/theme-init.js': THEME,
    '/apps/sagan/assets/index-a.css': CSS,
    '/apps/sagan/after-paint.js': AFTER_PAINT,
  };

  it('inlines the stylesheets and the theme script, and starts the modules after the first paint', () => {
    const out = inlineCriticalPath(PAGE, reader(all));
    expect(out).toContain(`<style>${CSS}</style>`);
    expect(out).not.toContain('index-a.css');
    expect(out).toContain(`<script>${THEME}</script>`);
    expect(out).not.toContain('src="/apps/sagan/theme-init.js"');
    expect(out).not.toContain('modulepreload');
    expect(out).not.toContain('type="module"');
    // Inline, last in the body: fetched, even deferred, it held the first frame.
    expect(out).toContain(
      '<script data-entry="/apps/sagan/assets/index-b.js" ' +
        `data-preload="/apps/sagan/assets/routes-c.js /apps/sagan/assets/page-d.js">${AFTER_PAINT}</script></body>`,
    );
    expect(out).not.toContain('after-paint.js');
  });

  it('leaves what it cannot read as it was', () => {
    const out = inlineCriticalPath(PAGE, reader({}));
    expect(out).toBe(PAGE);
  });

  it('never inlines text that would close its own element', () => {
    const hostile = {
      '/apps/sagan/theme-init.js': `${THEME}</script><script>alert(1)`,
      '/apps/sagan/assets/index-a.css': `${CSS}</style><script>alert(1)</script>`,
      '/apps/sagan/after-paint.js': `${AFTER_PAINT}</script><script>alert(1)`,
    };
    const out = inlineCriticalPath(PAGE, reader(hostile));
    expect(out).toContain('<script src="/apps/sagan/theme-init.js"></script>');
    expect(out).toContain('href="/apps/sagan/assets/index-a.css"');
    // Fetched as before, deferred.
    expect(out).toContain(
      '<script defer src="/apps/sagan/after-paint.js" data-entry="/apps/sagan/assets/index-b.js" ' +
        'data-preload="/apps/sagan/assets/routes-c.js /apps/sagan/assets/page-d.js"></script>',
    );
    expect(out).not.toContain('alert(1)');
    expect(inlineScriptHashes(reader(hostile))).toEqual([]);
  });

  it('the inline scripts are allowed by the CSP hashes of their exact texts', () => {
    expect(inlineScriptHashes(reader(all))).toEqual([sha256(THEME), sha256(AFTER_PAINT)]);
    expect(inlineScriptHashes(reader({}))).toEqual([]);
  });
});

describe('buildFileReader', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-build-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'a.css'), CSS);
    fs.writeFileSync(path.join(os.tmpdir(), 'sagan-outside.txt'), 'secret');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads files of the build by their URL, and nothing outside it', () => {
    const read = buildFileReader(dir);
    expect(read('/apps/sagan/assets/a.css')).toBe(CSS);
    expect(read('/apps/sagan/assets/missing.css')).toBeNull();
    expect(read('/apps/sagan/../sagan-outside.txt')).toBeNull();
    expect(read('/apps/sagan/assets/../../sagan-outside.txt')).toBeNull();
    expect(read('/elsewhere/assets/a.css')).toBeNull();
  });
});

/** A web build with a stand-in server-rendering bundle: this file tests the page around it. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-critical-'));
  const files: Record<string, string> = {
    'index.html': PAGE,
    'theme-init.js': THEME,
    'after-paint.js': AFTER_PAINT,
    'assets/index-a.css': CSS,
    '.ssr/entry-server.js': `export async function renderScoreboard(url, states) {
      globalThis.saganTestRenders = (globalThis.saganTestRenders ?? 0) + 1;
      const top = states[0] && states[0].data && states[0].data.top;
      return { html: '<section class="board"><div class="board-score">' + (top ? top.homeScore : '') + '</div></section>' };
    }`,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe.each(databaseKinds())('a server-rendered page on $name', (kind) => {
  let dir: string;
  let gameKey: string;
  let keeper: Awaited<ReturnType<typeof signInLocal>>;

  beforeAll(() => {
    dir = fakeBuild();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const t = useTestApp(kind, () => ({ config: { webDist: dir } }));
  beforeAll(async () => {
    keeper = await signInLocal(t.app, 'Critical Keeper');
    gameKey = await newGameOf(keeper, { gameName: 'Fast Cup', sportID: 2, homeScore: 7 });
  });

  it('paints from its own HTML, and the CSP allows exactly the inlined scripts', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${gameKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div class="board-score">7</div>');
    expect(res.body).toContain(`<style>${CSS}</style>`);
    expect(res.body).toContain(`<script>${THEME}</script>`);
    expect(res.body).toMatch(
      new RegExp(
        `<script data-entry="/apps/sagan/assets/index-b\\.js" [^>]*>${AFTER_PAINT.replace(/[*/]/g, '\\$&')}</script></body>`,
      ),
    );
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ');
    expect(scriptSrc).toEqual([
      "'self'",
      sha256(THEME),
      sha256(AFTER_PAINT),
      'https://accounts.google.com/gsi/client',
    ]);
  });

  it('renders a page once per change of what it shows, not once per request', async () => {
    const g = globalThis as { saganTestRenders?: number };
    const url = `/apps/sagan/viewscoreboard/${gameKey}`;
    const before = g.saganTestRenders ?? 0;
    const [a, b] = await Promise.all([t.app.inject({ url }), t.app.inject({ url })]);
    const c = await t.app.inject({ url });
    for (const res of [a, b, c]) expect(res.body).toContain('<div class="board-score">7</div>');
    // The first request may have found it rendered by the test above: at most one render.
    expect((g.saganTestRenders ?? 0) - before).toBeLessThanOrEqual(1);
    const write = await keeper.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { homeScore: 8 },
    });
    expect(write.statusCode).toBe(200);
    const rendered = g.saganTestRenders ?? 0;
    const after = await t.app.inject({ url });
    expect(after.body).toContain('<div class="board-score">8</div>');
    expect(g.saganTestRenders).toBe(rendered + 1);
    const again = await t.app.inject({ url });
    expect(again.body).toContain('<div class="board-score">8</div>');
    expect(g.saganTestRenders).toBe(rendered + 1);
  });

  it('pages it does not render get their styles and theme inlined, and their modules as they were', async () => {
    for (const url of ['/apps/sagan/playcounts', '/apps/sagan/teamsheets']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(
        PAGE.replace(
          '<script src="/apps/sagan/theme-init.js"></script>',
          `<script>${THEME}</script>`,
        ).replace(
          '<link rel="stylesheet" crossorigin href="/apps/sagan/assets/index-a.css">',
          `<style>${CSS}</style>`,
        ),
      );
    }
  });
});
