import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router';
import { routes, type RouteName } from '@sagan/shared/routes';
import { Layout } from '../components/layout.tsx';
import { Loading } from '../components/loading.tsx';
import { RequireAuth } from '../features/auth/require-auth.tsx';

// One lazily loaded module per screen, so a viewer of a scoreboard downloads only its code.
// Declarative routes rather than createBrowserRouter: the data router's loaders and actions
// are unused here and cost 17 KB gzip on every first load
// (docs/decisions/0011-web-first-load-weight.md).
const pages: Record<RouteName, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('../features/scoreboards/dashboard-page.tsx')),
  Login: lazy(() => import('../features/auth/login-page.tsx')),
  scoreboards: lazy(() => import('../features/scoreboards/scoreboards-page.tsx')),
  taggedScoreboards: lazy(() => import('../features/scoreboards/tagged-scoreboards-page.tsx')),
  scoreboard: lazy(() => import('../features/scoreboards/scoreboard-page.tsx')),
  scoreboardmini: lazy(() => import('../features/scoreboards/scoreboard-mini-page.tsx')),
  teamsheets: lazy(() => import('../features/teamsheets/teamsheets-page.tsx')),
  teamsheet: lazy(() => import('../features/teamsheets/teamsheet-page.tsx')),
  teamsheetPlayer: lazy(() => import('../features/teamsheets/teamsheet-player-page.tsx')),
  teamsheetedit: lazy(() => import('../features/teamsheets/teamsheet-edit-page.tsx')),
  teamsheetgroupedit: lazy(() => import('../features/teamsheets/group-edit-page.tsx')),
  teamsheetbulk: lazy(() => import('../features/teamsheets/bulk-upload-page.tsx')),
  teamsheetplayeredit: lazy(() => import('../features/teamsheets/player-edit-page.tsx')),
  playcounts: lazy(() => import('../features/playcounts/playcounts-page.tsx')),
  playcount: lazy(() => import('../features/playcounts/playcount-page.tsx')),
};
const NotFoundPage = lazy(() => import('../components/not-found.tsx'));

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

/** SPEC §2 routes, rendered inside <BrowserRouter basename={BASE_PATH}> (main.tsx). */
export function AppRoutes() {
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
