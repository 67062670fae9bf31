import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { BASE_PATH, routes, type RouteName } from '@sagan/shared/routes';
import { Layout } from '../components/layout.tsx';
import { RequireAuth } from '../features/auth/require-auth.tsx';

type PageModule = Promise<{ default: ComponentType }>;

// One lazily loaded module per screen, so a viewer of a scoreboard downloads only its code.
const pages: Record<RouteName, () => PageModule> = {
  dashboard: () => import('../features/scoreboards/dashboard-page.tsx'),
  Login: () => import('../features/auth/login-page.tsx'),
  scoreboards: () => import('../features/scoreboards/scoreboards-page.tsx'),
  taggedScoreboards: () => import('../features/scoreboards/tagged-scoreboards-page.tsx'),
  scoreboard: () => import('../features/scoreboards/scoreboard-page.tsx'),
  scoreboardmini: () => import('../features/scoreboards/scoreboard-mini-page.tsx'),
  teamsheets: () => import('../features/teamsheets/teamsheets-page.tsx'),
  teamsheet: () => import('../features/teamsheets/teamsheet-page.tsx'),
  teamsheetPlayer: () => import('../features/teamsheets/teamsheet-player-page.tsx'),
  teamsheetedit: () => import('../features/teamsheets/teamsheet-edit-page.tsx'),
  teamsheetgroupedit: () => import('../features/teamsheets/group-edit-page.tsx'),
  teamsheetbulk: () => import('../features/teamsheets/bulk-upload-page.tsx'),
  teamsheetplayeredit: () => import('../features/teamsheets/player-edit-page.tsx'),
  playcounts: () => import('../features/playcounts/playcounts-page.tsx'),
  playcount: () => import('../features/playcounts/playcount-page.tsx'),
};

/** The mini card is embedded by other sites, so it renders without menu and footer. */
const BARE_ROUTES: ReadonlySet<RouteName> = new Set(['scoreboardmini']);

function toRoute(name: RouteName): RouteObject {
  const { path, auth } = routes[name];
  return {
    id: name,
    path,
    lazy: async () => {
      const { default: Page } = await pages[name]();
      return {
        Component: auth
          ? () => (
              <RequireAuth>
                <Page />
              </RequireAuth>
            )
          : Page,
      };
    },
  };
}

const names = Object.keys(routes) as RouteName[];

export const router = createBrowserRouter(
  [
    ...names.filter((n) => BARE_ROUTES.has(n)).map(toRoute),
    {
      Component: Layout,
      children: [
        ...names.filter((n) => !BARE_ROUTES.has(n)).map(toRoute),
        {
          path: '*',
          lazy: async () => ({ Component: (await import('../components/not-found.tsx')).default }),
        },
      ],
    },
  ],
  { basename: BASE_PATH },
);
