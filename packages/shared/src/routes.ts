// SPEC §2 route table: one typed source for links, the navigation guard and the tests.
export const BASE_PATH = '/apps/sagan';

export const routes = {
  dashboard: { path: '/', auth: false },
  Login: { path: '/login', auth: false },
  scoreboards: { path: '/scoreboards', auth: false },
  taggedScoreboards: { path: '/taggedscoreboards/:tagID', auth: false },
  scoreboard: { path: '/viewscoreboard/:gameKey', auth: false },
  scoreboardmini: { path: '/viewscoreboardmini/:gameKey', auth: false },
  teamsheets: { path: '/teamsheets', auth: false },
  teamsheet: { path: '/teamsheets/:publishedAsKey', auth: false },
  teamsheetPlayer: { path: '/teamsheets/:publishedAsKey/:playerKey', auth: false },
  teamsheetedit: { path: '/teamsheetedit/:teamKey', auth: true },
  teamsheetgroupedit: { path: '/teamsheetgroupedit/:teamKey/:groupKey?', auth: true },
  teamsheetbulk: { path: '/teamsheetbulk/:teamKey', auth: true },
  teamsheetplayeredit: { path: '/teamsheetedit/:teamKey/:playerKey', auth: true },
  playcounts: { path: '/playcounts', auth: true },
  playcount: { path: '/playcount/:gameKey', auth: true },
  newgame: { path: '/newgame', auth: true },
  scoregame: { path: '/scoregame/:gameKey', auth: true },
  // The sideline play counter (DESIGN §9): start a count from a team sheet, count it, a team's
  // season, and the read-only link a coach shares with parents.
  playcountnew: { path: '/playcounts/new', auth: true },
  playcountcount: { path: '/playcount/:gameKey/count', auth: true },
  playcountseason: { path: '/playcountseason/:teamKey', auth: true },
  playcountshared: { path: '/playcountshare/:shareKey', auth: false },
  // A team sheet's season of box scores: who scored over the games linked to it (its owner's).
  scoringseason: { path: '/scoringseason/:teamKey', auth: true },
  privacy: { path: '/privacy', auth: false },
  termsOfService: { path: '/termsOfService', auth: false },
  // The operators' report queue (ADMIN_UIDS); the server answers 404 to everyone else.
  admin: { path: '/admin', auth: true },
  // An invitation to co-score; its token is in the fragment. The page asks to sign in itself.
  invite: { path: '/invite', auth: false },
} as const satisfies Record<string, { path: string; auth: boolean }>;

export type RouteName = keyof typeof routes;

/** Builds a concrete path (relative to the base path) from a route name and its params. */
export function pathTo(name: RouteName, params: Record<string, string | number> = {}): string {
  const pattern: string = routes[name].path;
  return pattern
    .replace(/\/:(\w+)(\?)?/g, (_m, key: string, optional?: string) => {
      const value = params[key];
      if (value === undefined || value === '') {
        if (optional) return '';
        throw new Error(`pathTo(${name}): missing param ${key}`);
      }
      return `/${encodeURIComponent(String(value))}`;
    })
    .replace(/^$/, '/');
}

/** Every client route pattern, for the server's history fallback. */
export const clientRoutePatterns: string[] = Object.values(routes).map((r) => r.path);

/**
 * The pages a fan opens from a link, which show public data and take no input: their documents
 * are sent without Cross-Origin-Opener-Policy, every other document with it
 * (docs/decisions/0016-opener-isolation-by-page.md). The app leaves such a document with a full
 * load when it goes to any other page, so a page that signs in or takes input is always in a
 * document that has it.
 */
const UNISOLATED: readonly RouteName[] = [
  'dashboard',
  'taggedScoreboards',
  'scoreboard',
  'scoreboardmini',
  'teamsheet',
  'teamsheetPlayer',
  'playcountshared',
];

const unisolatedRegexes = UNISOLATED.map(
  (name) =>
    new RegExp('^' + routes[name].path.replace(/:\w+/g, '[^/]+').replace(/\/$/, '') + '/?$'),
);

/** Whether a path under the base path ('/viewscoreboard/x') is one of those pages. */
export function opensUnisolated(path: string): boolean {
  return unisolatedRegexes.some((r) => r.test(path));
}
