// The server-rendered first paint of the public pages with their data
// (docs/decisions/0013-server-rendered-first-paint.md). Built by vite.ssr.config.ts into
// `<webDist>/.ssr/entry-server.js` and loaded by the server's history fallback.
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StaticRouter } from 'react-router';
import type { AppConfig, SessionUser } from '@sagan/shared/auth';
import { BASE_PATH } from '@sagan/shared/routes';
import { AppRoutes, preloadRoute } from '../app/router.tsx';
import { setInitialConfig, setInitialSession } from '../lib/auth.ts';
import { OriginContext } from '../lib/origin.ts';
import { RealtimeClient, RealtimeContext, type TopicSeed } from '../lib/realtime.ts';
import { pageAssetLinks } from './page-assets.ts';

export type { TopicSeed };

export interface Rendered {
  /** The markup that goes inside `<div id="root">`. */
  html: string;
  /** Links for `<head>`: the page's stylesheets and module preloads (with a manifest). */
  head?: string;
}

/**
 * The page modules of the server-rendered routes, as the build manifest names them (the same
 * modules app/router.tsx loads lazily).
 */
const PAGE_SOURCES: ReadonlyArray<[RegExp, string]> = [
  [/^\/$/, 'src/features/scoreboards/dashboard-page.tsx'],
  [/^\/scoreboards\/?$/, 'src/features/scoreboards/scoreboards-page.tsx'],
  [/^\/taggedscoreboards\/[^/]+\/?$/, 'src/features/scoreboards/tagged-scoreboards-page.tsx'],
  [/^\/viewscoreboard\/[^/]+\/?$/, 'src/features/scoreboards/scoreboard-page.tsx'],
  [/^\/viewscoreboardmini\/[^/]+\/?$/, 'src/features/scoreboards/scoreboard-mini-page.tsx'],
  [/^\/teamsheets\/[^/]+\/?$/, 'src/features/teamsheets/teamsheet-page.tsx'],
  [/^\/teamsheets\/[^/]+\/[^/]+\/?$/, 'src/features/teamsheets/teamsheet-player-page.tsx'],
  [/^\/playcountshare\/[^/]+\/?$/, 'src/features/playcounts/shared-page.tsx'],
];

/**
 * Renders the page at url (a path under the base path, e.g.
 * `/apps/sagan/viewscoreboard/-Nx1`) with the same components, routes and layout the browser
 * renders, its realtime topics holding the given states. Queries (who is signed in, watchers)
 * are not fetched: they render as they do on the browser's first render, before their answer;
 * the site's config (appConfig) is known to both. A per-user page is given its request's
 * session (null: signed out); without one, who is signed in renders as not yet known.
 * origin is the request's, for pages that show their own full link.
 */
export async function renderScoreboard(
  url: string,
  states: TopicSeed[],
  opts: {
    manifest?: unknown;
    origin?: string;
    appConfig?: AppConfig;
    session?: SessionUser | null;
  } = {},
): Promise<Rendered> {
  const pathname = url.split('?')[0] ?? '';
  if (!pathname.startsWith(`${BASE_PATH}/`)) throw new Error(`not under ${BASE_PATH}: ${url}`);
  const route = pathname.slice(BASE_PATH.length);
  // Rendered to a string in one pass, nothing may suspend: the page must be loaded before.
  await preloadRoute(route);
  // Never connected: its subscribe() runs in effects, which the server does not run.
  const realtime = new RealtimeClient(() => {
    throw new Error('no socket on the server');
  });
  for (const s of states) realtime.seed(s);
  const queryClient = new QueryClient();
  // Set before each render, which is synchronous: the site's config is the same for every page.
  setInitialConfig(opts.appConfig);
  setInitialSession(opts.session);
  const html = renderToString(
    <OriginContext.Provider value={opts.origin ?? null}>
      <RealtimeContext.Provider value={realtime}>
        <QueryClientProvider client={queryClient}>
          <StaticRouter basename={BASE_PATH} location={url}>
            <AppRoutes />
          </StaticRouter>
        </QueryClientProvider>
      </RealtimeContext.Provider>
    </OriginContext.Provider>,
  );
  const src = PAGE_SOURCES.find(([re]) => re.test(route))?.[1];
  const head = src ? pageAssetLinks(opts.manifest, src, import.meta.env.BASE_URL) : '';
  return head ? { html, head } : { html };
}
