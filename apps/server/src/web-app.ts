import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppConfig, SessionUser } from '@sagan/shared/auth';
import { API_PATH } from '@sagan/shared/http';
import { BASE_PATH, clientRoutePatterns, opensUnisolated, routes } from '@sagan/shared/routes';
import type { Config } from './config.ts';
import {
  buildFileReader,
  inlineCriticalPath,
  inlineStylesAndTheme,
  type BuildFileReader,
} from './critical-path.ts';
import { gameRoute, injectPreview, previewFor } from './share-preview.ts';
import { renderedPage, type RenderedPage, type TopicState } from './rendered-pages.ts';
import { appConfigFor } from './routes/auth/index.ts';
import { seesHiddenGame } from './routes/scoreboards/public.ts';
import { originForm, requestOrigin } from './lib/hosts.ts';
import { allowFraming } from './lib/framing.ts';

/** The empty root of the built index.html, where the server-rendered markup goes. */
const ROOT = '<div id="root"></div>';

const clientRouteRegexes = clientRoutePatterns.map(
  (p) =>
    new RegExp(
      '^' +
        p
          .replace(/\/:\w+\?/g, '(?:/[^/]+)?')
          .replace(/:\w+/g, '[^/]+')
          .replace(/\/$/, '') +
        '/?$',
    ),
);

function isClientRoute(pathname: string): boolean {
  return clientRouteRegexes.some((r) => r.test(pathname));
}

// The server-rendered first paint of the public pages (docs/decisions/0013): a viewer sees the
// page as soon as the HTML arrives, before any JavaScript has loaded.

/** What `apps/web/src/ssr/entry-server.tsx` exports, built into `<webDist>/.ssr/`. */
interface SsrModule {
  renderScoreboard(
    url: string,
    states: TopicState[],
    opts?: {
      manifest?: unknown;
      origin?: string;
      appConfig?: AppConfig;
      session?: SessionUser | null;
    },
  ): Promise<{ html: string; head?: string }>;
}

interface FirstPaint {
  module: SsrModule;
  /** Vite's build manifest (`.vite/manifest.json`), for the page's preload and style links. */
  manifest: unknown;
}

/**
 * The SSR bundle of the built web app, or null when there is none (an API-only server, tests
 * without a build): the fallback then sends index.html as before.
 */
async function loadFirstPaint(
  webDist: string,
  indexHtml: string,
  log: FastifyBaseLogger,
): Promise<FirstPaint | null> {
  const entry = path.join(webDist, '.ssr', 'entry-server.js');
  if (!fs.existsSync(entry)) return null;
  try {
    if (!indexHtml.includes(ROOT)) throw new Error(`index.html has no ${ROOT}`);
    const module = (await import(pathToFileURL(entry).href)) as Partial<SsrModule>;
    if (typeof module.renderScoreboard !== 'function') throw new Error('no renderScoreboard');
    let manifest: unknown = undefined;
    const manifestPath = path.join(webDist, '.vite', 'manifest.json');
    if (fs.existsSync(manifestPath)) manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    return { module: module as SsrModule, manifest };
  } catch (err) {
    log.error({ err, entry }, 'server rendering disabled: its bundle did not load');
    return null;
  }
}

/**
 * JSON inside `<script type="application/json">`: `<` escaped so no value can close the
 * element (`</script>`) or open a comment, U+2028/U+2029 so the text is also valid JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The id main.tsx reads the states from (apps/web/src/lib/realtime.ts INITIAL_STATE_ID). */
const INITIAL_STATE_ID = 'sagan-initial';
/** The id main.tsx reads GET /config's answer from (apps/web/src/lib/auth.ts). */
const INITIAL_CONFIG_ID = 'sagan-config';
/** The id main.tsx reads a per-user page's session from (apps/web/src/lib/auth.ts). */
const INITIAL_SESSION_ID = 'sagan-session';

/**
 * index.html with the rendered markup in #root, the states beside it, and the extra head
 * (loadFirstPaint made sure index.html has an empty #root). A per-user page also carries the
 * session it was rendered for (undefined: a shared page, which does not).
 */
function injectFirstPaint(
  indexHtml: string,
  rendered: { html: string; head?: string },
  states: TopicState[],
  appConfig: AppConfig,
  session: SessionUser | null | undefined,
): string {
  // Busy from the first byte until main.tsx has taken the markup over: its entry runs only after
  // the first paint (after-paint.js), and until then a tap on the markup does nothing.
  const body =
    `<div id="root" aria-busy="true">${rendered.html}</div>` +
    `<script type="application/json" id="${INITIAL_STATE_ID}">${jsonForScript(states)}</script>` +
    `<script type="application/json" id="${INITIAL_CONFIG_ID}">${jsonForScript(appConfig)}</script>` +
    (session === undefined
      ? ''
      : `<script type="application/json" id="${INITIAL_SESSION_ID}">${jsonForScript({ user: session })}</script>`);
  let html = indexHtml.replace(ROOT, () => body);
  if (rendered.head) html = html.replace('</head>', () => `    ${rendered.head}\n  </head>`);
  return html;
}

/**
 * Rendered markup by route, origin and the state of every topic the page shows: a
 * page is rendered once per change of what it shows (hiding, unpublishing and privacy changes
 * are changes of their topics), not once per request, and requests that arrive together share
 * one render. The states themselves (with the clock's server time) are written in per request.
 */
type RenderCache = Map<string, Promise<{ html: string; head?: string } | null>>;
// A scoreboard page is ≈ 25 KB: 200 of them are ≈ 5 MB.
const RENDER_CACHE_ENTRIES = 200;

/**
 * A topic's part of a render key: its sequence number, which labels its state (both are read in
 * one snapshot), except for an aggregate topic (the dashboard's lists, a tag's games). Those are
 * numbered up to an interval after a change commits (decisions/0015), so until then the same
 * number can stand for a newer state: a hidden game would stay on the cached page meanwhile.
 * They are keyed by what they hold.
 */
function renderKeyPart(state: TopicState, coalesced: boolean): string {
  if (!coalesced) return `${state.topic}@${state.seq}`;
  const digest = crypto.createHash('sha1').update(JSON.stringify(state.data)).digest('base64');
  return `${state.topic}#${digest}`;
}

function renderKey(
  route: string,
  origin: string,
  appConfig: AppConfig,
  session: SessionUser | null | undefined,
  states: TopicState[],
  isCoalesced: (topic: string) => boolean,
): string {
  const parts = states.map((s) => renderKeyPart(s, isCoalesced(s.topic)));
  // A per-user page's render is its user's alone: who it was rendered for is part of its key.
  const who = session === undefined ? 'shared' : `session ${JSON.stringify(session)}`;
  return [route, origin, JSON.stringify(appConfig), who, ...parts].join('\n');
}

/** A browser loading a page (not a script, an image or an API client). */
function isBrowserNavigation(headers: IncomingHttpHeaders): boolean {
  return headers['sec-fetch-mode'] === 'navigate' || /\btext\/html\b/.test(headers.accept ?? '');
}

/** What the server reads of the web build once, at start. */
interface WebBuild {
  hasWeb: boolean;
  indexHtml: string;
  firstPaint: FirstPaint | null;
  readBuildFile: BuildFileReader;
  /** What a client-rendered page is sent: its styles and theme need no request of their own. */
  clientHtml: string;
}

/**
 * Reads the web build and loads its server-rendering bundle. Needs no database: app.ts starts
 * it before awaiting the database, so a start does not load the bundle after the database is
 * ready (the embedded one takes longer to start than the app's modules take to load).
 */
export async function loadWebBuild(config: Config, log: FastifyBaseLogger): Promise<WebBuild> {
  const indexPath = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexPath);
  if (!hasWeb) log.warn({ webDist: config.webDist }, 'web app not built; API only');
  const indexHtml = hasWeb ? fs.readFileSync(indexPath, 'utf8') : '';
  const firstPaint = hasWeb ? await loadFirstPaint(config.webDist, indexHtml, log) : null;
  const readBuildFile = buildFileReader(config.webDist);
  const clientHtml = inlineStylesAndTheme(indexHtml, readBuildFile);
  return { hasWeb, indexHtml, firstPaint, readBuildFile, clientHtml };
}

/** The built web app, with history fallback for every client route of SPEC §2. */
export async function registerWebApp(
  app: FastifyInstance,
  config: Config,
  build: Promise<WebBuild>,
): Promise<void> {
  const { hasWeb, indexHtml, firstPaint, readBuildFile, clientHtml } = await build;
  const renderCache: RenderCache = new Map();

  /**
   * The states a rendered page shows, whether they say its subject is missing, and its markup
   * (null when there is no bundle or the render failed: the viewer then gets the
   * client-rendered page, never a 500 for this; the failure is logged).
   */
  async function renderPage(
    route: string,
    page: RenderedPage,
    origin: string,
    appConfig: AppConfig,
    user: SessionUser | null,
  ): Promise<{
    states: TopicState[];
    missing: boolean;
    rendered: { html: string; head?: string } | null;
    appConfig: AppConfig;
    session: SessionUser | null | undefined;
  }> {
    // Only what the app's own session check answers (GET /auth/session) goes into the page.
    const session = page.perUser
      ? user && { uid: user.uid, displayName: user.displayName }
      : undefined;
    const states = await Promise.all(
      page.topics.map(async (topic) => ({ topic, ...(await app.hub.current(topic)) })),
    );
    const missing = page.missing(states);
    if (!firstPaint) return { states, missing, rendered: null, appConfig, session };
    const render = async () => {
      try {
        return await firstPaint.module.renderScoreboard(BASE_PATH + route, states, {
          manifest: firstPaint.manifest,
          origin,
          appConfig,
          session,
        });
      } catch (err) {
        app.log.error({ err, route }, 'server rendering failed; sending the client-rendered page');
        return null;
      }
    };
    // A running clock is cached like the rest: its time is not in the markup, but filled in
    // after paint from the states (written in per request, with the server's time).
    const key = renderKey(route, origin, appConfig, session, states, (topic) =>
      app.hub.isCoalesced(topic),
    );
    let rendered = renderCache.get(key);
    if (rendered) {
      // Most recently used last, so the oldest is the first evicted.
      renderCache.delete(key);
    } else {
      rendered = render();
      if (renderCache.size >= RENDER_CACHE_ENTRIES) {
        renderCache.delete(renderCache.keys().next().value!);
      }
    }
    renderCache.set(key, rendered);
    const html = await rendered;
    // A failed render is not kept: the next request tries again.
    if (!html && renderCache.get(key) === rendered) renderCache.delete(key);
    return { states, missing, rendered: html, appConfig, session };
  }

  if (hasWeb) {
    await app.register(async (files) => {
      // The static plugin refuses a path that is not canonical (`..`, `//`, `/./`, NUL) or names
      // a folder with 403: answered as any other path that is no file, so a probe learns nothing
      // from the difference.
      files.setErrorHandler((err: { statusCode?: number }, _req, reply) =>
        err.statusCode === 403 ? reply.callNotFound() : reply.send(err),
      );
      await files.register(fastifyStatic, {
        root: config.webDist,
        prefix: `${BASE_PATH}/`,
        index: false,
        wildcard: true,
        // The server's own files live in dot folders of the build (.ssr: the server-rendering
        // bundle, .vite: the build manifest): never served.
        dotfiles: 'ignore',
        // The build writes .br and .gz beside every text file (apps/web/vite.config.ts): sent as
        // the client accepts, with Vary: accept-encoding.
        preCompressed: true,
        // The ETag alone revalidates the few unhashed files; Last-Modified and Accept-Ranges
        // would be ≈ 70 bytes more on each of a first load's ~20 files (nothing here is fetched
        // in ranges).
        lastModified: false,
        acceptRanges: false,
        setHeaders(res, filePath) {
          // Vite puts a content hash in every asset name, so they never change. An immutable
          // file is never revalidated, so its ETag (≈ 30 bytes on each of a first load's dozen
          // assets) would never be sent back.
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
            res.removeHeader('etag');
          } else {
            res.header('cache-control', 'public, max-age=3600');
          }
        },
      });
    });
  }

  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect(`${BASE_PATH}/`));
  app.get(BASE_PATH, { schema: { hide: true } }, (_req, reply) => reply.redirect(`${BASE_PATH}/`));

  // The static plugin answers 403 for its root folder; the app's home is the dashboard, served
  // (and rendered with its data) as every other page of the app is.
  if (hasWeb) {
    app.get(`${BASE_PATH}/`, { schema: { hide: true } }, (_req, reply) => reply.callNotFound());
  }

  app.setNotFoundHandler(async (req, reply) => {
    const pathname = originForm(req.url).split('?')[0] ?? '';
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      pathname.startsWith(`${BASE_PATH}/`) &&
      !pathname.startsWith(`${API_PATH}/`) &&
      hasWeb
    ) {
      const route = pathname.slice(BASE_PATH.length) || '/';
      // The operators' screen does not exist for anyone else (DESIGN §10), in every spelling
      // the client routes accept (`/admin/` too).
      const known =
        isClientRoute(route) &&
        (route.replace(/\/$/, '') !== routes.admin.path ||
          (!!req.user && config.adminUids.includes(req.user.uid)));
      const page = renderedPage(route, req.user?.uid ?? null);
      let html = indexHtml;
      const [preview, painted] = await Promise.all([
        known ? previewFor(app.db, route) : null,
        page && page !== 'malformed'
          ? renderPage(
              route,
              page,
              requestOrigin(req, config.publicUrl),
              appConfigFor(config, req),
              req.user,
            )
          : null,
      ]);
      // Shared links get a preview card; public sheets stay out of search engines.
      if (preview) {
        const origin = requestOrigin(req, config.publicUrl);
        html = injectPreview(indexHtml, preview, `${origin}${pathname}`, origin);
        if (preview.noindex) reply.header('x-robots-tag', 'noindex');
      }
      // A hidden game's own people (its scorers, the operators) get the page their app fills
      // in, marked hidden; the shared render, which says not found, is everyone else's.
      const uid = req.user?.uid;
      const game = painted?.missing && uid ? gameRoute(route) : null;
      const seesHidden =
        !!game && !!uid && (await seesHiddenGame(app.db, uid, game.gameKey, config.adminUids));
      html = seesHidden
        ? clientHtml
        : painted?.rendered
          ? inlineCriticalPath(
              injectFirstPaint(
                html,
                painted.rendered,
                painted.states,
                painted.appConfig,
                painted.session,
              ),
              readBuildFile,
            )
          : html === indexHtml
            ? clientHtml
            : inlineStylesAndTheme(html, readBuildFile);
      // The mini card is made to be embedded by other sites: that exact route only.
      if (known && gameRoute(route)?.mini) allowFraming(reply);
      // A fan's public page keeps no window worth isolating, and COOP would cost its first
      // paint a new browsing context group (docs/decisions/0016-opener-isolation-by-page.md).
      if (opensUnisolated(route)) reply.removeHeader('cross-origin-opener-policy');
      // A game, sheet, player or shared link that is not there (or could not be, its key
      // malformed) is not found, as an unknown path is; the page says so itself.
      const found = known && page !== 'malformed' && (!painted?.missing || seesHidden);
      // Unknown paths still get the app (it shows its not-found page) but with a 404 status.
      return (
        reply
          .code(found ? 200 : 404)
          // A page rendered for one user's session is never kept for another (nor revalidated
          // by a shared cache): it is asked for again.
          .header(
            'cache-control',
            page && page !== 'malformed' && page.perUser ? 'private, no-store' : 'no-cache',
          )
          .type('text/html; charset=utf-8')
          .send(html)
      );
    }
    // A person following a stale or mistyped link outside the app's base path (an old
    // /privacy or /blog/ link, say) gets the app's friendly page at the same path under the
    // base path, never a JSON body; programs (and the API) keep the JSON answer.
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      hasWeb &&
      !pathname.startsWith(`${BASE_PATH}/`) &&
      isBrowserNavigation(req.headers)
    ) {
      return reply.redirect(`${BASE_PATH}${pathname}`);
    }
    return reply.code(404).send({ error: 'Not found' });
  });
}
