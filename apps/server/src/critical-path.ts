import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BASE_PATH } from '@sagan/shared/routes';

// What a server-rendered page waits for before its first paint (docs/decisions/0013). Measured
// in headless Chromium on this VM: the external stylesheets and theme script cost one round trip
// each before anything shows, and compiling the app's modules (preloaded, then run after the
// parser) delayed the first frame by ≈ 75 ms more. The board needs none of them to be seen.

const THEME_SCRIPT_HREF = `${BASE_PATH}/theme-init.js`;
const AFTER_PAINT_HREF = `${BASE_PATH}/after-paint.js`;

/** Reads a file of the web build by its URL; null for anything outside it or missing. */
export type BuildFileReader = (href: string) => string | null;

export function buildFileReader(webDist: string): BuildFileReader {
  const root = path.resolve(webDist);
  // Built files are immutable for the life of the process (a deploy restarts it).
  const cache = new Map<string, string | null>();
  return (href) => {
    if (cache.has(href)) return cache.get(href)!;
    let text: string | null = null;
    if (href.startsWith(`${BASE_PATH}/`) && !href.includes('..')) {
      const file = path.resolve(root, href.slice(BASE_PATH.length + 1));
      if (file.startsWith(root + path.sep) && fs.existsSync(file)) {
        text = fs.readFileSync(file, 'utf8');
      }
    }
    cache.set(href, text);
    return text;
  };
}

/** A built script of the build, when there is one that can stand inside a `<script>` element. */
function inlinableScript(read: BuildFileReader, href: string): string | null {
  const source = read(href);
  return source === null || /<\/script/i.test(source) ? null : source;
}

const inlinableThemeScript = (read: BuildFileReader) => inlinableScript(read, THEME_SCRIPT_HREF);

/**
 * The CSP hashes of the scripts pages carry inline, for those the build has: the theme script
 * (the theme is set before the first paint without a request) and after-paint.js (below). The
 * only inline scripts the policy allows.
 */
export function inlineScriptHashes(read: BuildFileReader): string[] {
  return [THEME_SCRIPT_HREF, AFTER_PAINT_HREF].flatMap((href) => {
    const source = inlinableScript(read, href);
    return source === null
      ? []
      : [`'sha256-${crypto.createHash('sha256').update(source).digest('base64')}'`];
  });
}

const STYLESHEET = /<link rel="stylesheet"[^>]*?href="([^"]+)"[^>]*>/g;
const MODULE_PRELOAD = /[ \t]*<link rel="modulepreload"[^>]*?href="([^"]+)"[^>]*>\n?/g;
const ENTRY_SCRIPT = /<script type="module"[^>]*?src="([^"]+)"[^>]*><\/script>/;

/**
 * Stylesheets and the theme script inlined: what every page needs before its first paint,
 * without a round trip each. Client-rendered pages get this too (their first paint is the
 * app's, but the styles and theme would otherwise still block it). Anything that cannot be
 * read is left as it was.
 */
export function inlineStylesAndTheme(html: string, read: BuildFileReader): string {
  const out = html.replace(STYLESHEET, (tag, href: string) => {
    const css = read(href);
    return css !== null && !/<\/style/i.test(css) ? `<style>${css}</style>` : tag;
  });
  const theme = inlinableThemeScript(read);
  if (theme === null) return out;
  return out.replace(
    `<script src="${THEME_SCRIPT_HREF}"></script>`,
    () => `<script>${theme}</script>`,
  );
}

/**
 * A server-rendered page whose first paint waits for nothing but its own HTML: stylesheets and
 * the theme script inlined, and the app's modules (with their preloads) started by
 * after-paint.js once that first frame is out. Anything that cannot be read is left as it was.
 *
 * after-paint.js itself is inline too, last in the body (its clock reads the rendered board and
 * the page's states above it). Fetched, even deferred, it held the board's first frame: in
 * headless Chromium the bare floor given the same deferred script took as long as the page
 * (bench:web --first-paint: 0.99× the page, against 1.20-1.24× without it).
 */
export function inlineCriticalPath(html: string, read: BuildFileReader): string {
  let out = inlineStylesAndTheme(html, read);
  const entry = ENTRY_SCRIPT.exec(out);
  if (entry && read(AFTER_PAINT_HREF) !== null) {
    const preloads: string[] = [];
    out = out.replace(MODULE_PRELOAD, (_tag, href: string) => {
      preloads.push(href);
      return '';
    });
    const starts = `data-entry="${entry[1]}" data-preload="${preloads.join(' ')}"`;
    const source = inlinableScript(read, AFTER_PAINT_HREF);
    if (source !== null && out.includes('</body>')) {
      out = out.replace(ENTRY_SCRIPT, '');
      const bodyEnd = out.lastIndexOf('</body>');
      out = `${out.slice(0, bodyEnd)}<script ${starts}>${source}</script>${out.slice(bodyEnd)}`;
    } else {
      out = out.replace(
        ENTRY_SCRIPT,
        () => `<script defer src="${AFTER_PAINT_HREF}" ${starts}></script>`,
      );
    }
  }
  return out;
}
