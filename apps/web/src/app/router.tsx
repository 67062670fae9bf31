import { lazy, Suspense, useState, type ComponentType, type JSX } from 'react';
import { matchPath, Route, Routes, useLocation } from 'react-router';
import { BASE_PATH, routes, type RouteName } from '@sagan/shared/routes';
import { Layout } from './layout.tsx';
import { Loading } from '../components/loading.tsx';
import { RequireAuth } from '../features/auth/require-auth.tsx';

// One lazily loaded module per screen, so a viewer of a scoreboard downloads only its code. The
// pages a fan opens ('topics') read realtime topics and lib/auth.ts, and load no TanStack Query.
// Declarative routes rather than createBrowserRouter: the data router's loaders and actions
// are unused here and cost 17 KB gzip on every first load
// (docs/decisions/0011-web-first-load-weight.md).

interface LazyPage {
  (): JSX.Element;
  /** Loads the module; once it has loaded, the page renders without suspending. */
  preload(): Promise<void>;
}

/**
 * React.lazy, plus preload(): a lazy component suspends on its first render even when its
 * module is already loaded, so the first commit over a server-rendered page would be the
 * <Loading/> fallback, a visible flash (docs/decisions/0013-server-rendered-first-paint.md).
 * A page preloaded before that render is rendered directly.
 */
function lazyPage(
  load: () => Promise<{ default: ComponentType }>,
  data: 'topics' | 'queries' = 'queries',
): LazyPage {
  // A page that reads with TanStack Query loads it with its own code, inside its client.
  const loadPage =
    data === 'topics'
      ? load
      : () =>
          Promise.all([load(), import('../lib/query-client.tsx')]).then(([m, q]) => ({
            default: q.withQueries(m.default),
          }));
  let loaded: ComponentType | undefined;
  let pending: Promise<{ default: ComponentType }> | undefined;
  const get = () =>
    (pending ??= loadPage().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = undefined; // a later navigation may try again
        throw err;
      },
    ));
  const Lazy = lazy(get);
  function Page() {
    // Chosen once per mount: switching from Lazy to the loaded component later would be a
    // change of component type, which remounts the page and loses its state.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Component />;
  }
  Page.preload = () => get().then(() => undefined);
  return Page;
}

const pages: Record<RouteName, LazyPage> = {
  dashboard: lazyPage(() => import('../features/scoreboards/dashboard-page.tsx'), 'topics'),
  Login: lazyPage(() => import('../features/auth/login-page.tsx'), 'topics'),
  scoreboards: lazyPage(() => import('../features/scoreboards/scoreboards-page.tsx'), 'topics'),
  taggedScoreboards: lazyPage(
    () => import('../features/scoreboards/tagged-scoreboards-page.tsx'),
    'topics',
  ),
  scoreboard: lazyPage(() => import('../features/scoreboards/scoreboard-page.tsx'), 'topics'),
  scoreboardmini: lazyPage(
    () => import('../features/scoreboards/scoreboard-mini-page.tsx'),
    'topics',
  ),
  teamsheets: lazyPage(() => import('../features/teamsheets/teamsheets-page.tsx')),
  teamsheet: lazyPage(() => import('../features/teamsheets/teamsheet-page.tsx'), 'topics'),
  teamsheetPlayer: lazyPage(
    () => import('../features/teamsheets/teamsheet-player-page.tsx'),
    'topics',
  ),
  teamsheetedit: lazyPage(() => import('../features/teamsheets/teamsheet-edit-page.tsx')),
  teamsheetgroupedit: lazyPage(() => import('../features/teamsheets/group-edit-page.tsx')),
  teamsheetbulk: lazyPage(() => import('../features/teamsheets/bulk-upload-page.tsx')),
  teamsheetplayeredit: lazyPage(() => import('../features/teamsheets/player-edit-page.tsx')),
  playcounts: lazyPage(() => import('../features/playcounts/playcounts-page.tsx')),
  playcount: lazyPage(() => import('../features/playcounts/playcount-page.tsx')),
  newgame: lazyPage(() => import('../features/scoreboards/new-game-page.tsx')),
  scoregame: lazyPage(() => import('../features/scoreboards/scorekeeper-page.tsx')),
  playcountnew: lazyPage(() => import('../features/playcounts/new-playcount-page.tsx')),
  playcountcount: lazyPage(() => import('../features/playcounts/count-page.tsx')),
  playcountseason: lazyPage(() => import('../features/playcounts/season-page.tsx')),
  playcountshared: lazyPage(() => import('../features/playcounts/shared-page.tsx'), 'topics'),
  scoringseason: lazyPage(() => import('../features/teamsheets/scoring-season-page.tsx')),
  privacy: lazyPage(() => import('../features/legal/privacy-page.tsx'), 'topics'),
  termsOfService: lazyPage(() => import('../features/legal/terms-page.tsx'), 'topics'),
  admin: lazyPage(() => import('../features/moderation/admin-page.tsx')),
  invite: lazyPage(() => import('../features/coscorers/redeem-page.tsx')),
};
const NotFoundPage = lazyPage(() => import('../components/not-found.tsx'), 'topics');

/** The mini card is embedded by other sites, so it renders without menu and footer. */
const BARE_ROUTES: ReadonlySet<RouteName> = new Set(['scoreboardmini']);

function toRoute(name: RouteName) {
  const { path, auth } = routes[name];
  const Page = pages[name];
  const page = (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
  return <Route key={name} path={path} element={auth ? <RequireAuth>{page}</RequireAuth> : page} />;
}

const names = Object.keys(routes) as RouteName[];

/**
 * Loads the page module of a path (relative to the base path) so that the first render shows
 * the page itself: before taking over a server-rendered page, and on the server.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const name = names.find((n) => matchPath({ path: routes[n].path, end: true }, pathname));
  return (name ? pages[name] : NotFoundPage).preload();
}

/**
 * Inside another site's frame: the server lets only the mini card be framed, but once framed
 * the page could still be navigated client-side to a screen with buttons (clickjacking). On
 * the server there is no frame.
 */
function isFramed(): boolean {
  return typeof window !== 'undefined' && window.self !== window.top;
}

/** What a framed page shows instead of any screen but the mini card. */
function FramedRefusal() {
  const location = useLocation();
  return (
    <main className="page narrow">
      <p>This page cannot be shown inside another site.</p>
      <a href={BASE_PATH + location.pathname} target="_blank" rel="noopener noreferrer">
        Open it on Sagan
      </a>
    </main>
  );
}

/** SPEC §2 routes, rendered inside <BrowserRouter basename={BASE_PATH}> (main.tsx). */
export function AppRoutes() {
  if (isFramed()) {
    return (
      <Routes>
        {names.filter((n) => BARE_ROUTES.has(n)).map(toRoute)}
        <Route path="*" element={<FramedRefusal />} />
      </Routes>
    );
  }
  return (
    <Routes>
      {names.filter((n) => BARE_ROUTES.has(n)).map(toRoute)}
      <Route element={<Layout />}>
        {names.filter((n) => !BARE_ROUTES.has(n)).map(toRoute)}
        <Route
          path="*"
          element={
            <Suspense fallback={<Loading />}>
              <NotFoundPage />
            </Suspense>
          }
        />
      </Route>
    </Routes>
  );
}
