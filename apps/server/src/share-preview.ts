import { BASE_PATH } from '@sagan/shared/routes';
import { sportName } from '@sagan/shared/sports';
import type { Queryable } from './db/db.ts';
import { keyInPath } from './lib/keys.ts';
import { findPublicGame } from './routes/scoreboards/repo.ts';
import { loadPublicRoster } from './routes/teamsheets/repo.ts';

// Share previews: a link pasted in a group chat shows a card. Chat apps do not run
// our JavaScript, so the server writes the Open Graph / Twitter tags into index.html.

export interface Preview {
  title: string;
  description: string;
  /** Pages with children's names (team sheets, players) stay out of search engines. */
  noindex: boolean;
}

/** The app icon: always there, and it reveals nothing about the game or team. */
const PREVIEW_IMAGE_PATH = `${BASE_PATH}/icons/icon-512.png`;

const GAME_RE = /^\/viewscoreboard(mini)?\/([^/]+)\/?$/;
const SHEET_RE = /^\/teamsheets\/([^/]+)(?:\/([^/]+))?\/?$/;
const TAG_RE = /^\/taggedscoreboards\/[^/]+\/?$/;
const PLAY_COUNT_SHARE_RE = /^\/playcountshare\/[^/]+\/?$/;

/**
 * The game a scoreboard route (full board or mini card; the path after the base path) shows,
 * when its key is well-formed.
 */
export function gameRoute(route: string): { gameKey: string; mini: boolean } | null {
  const m = GAME_RE.exec(route);
  const gameKey = m ? keyInPath(m[2]) : null;
  return m && gameKey ? { gameKey, mini: m[1] === 'mini' } : null;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** route is the path after the base path, e.g. `/viewscoreboard/-Nx1`. */
export async function previewFor(q: Queryable, route: string): Promise<Preview | null> {
  const game = gameRoute(route);
  if (game) {
    const found = await findPublicGame(q, game.gameKey);
    if (!found) return null;
    const g = found.fields;
    return {
      // SPEC §2 scoreboard: teams and score.
      title: `${g.homeTeamName} ${g.homeScore} – ${g.awayScore} ${g.awayTeamName}`,
      description: [g.gameName, g.gamePeriod, sportName(g.sportID)].filter(Boolean).join(' · '),
      noindex: true,
    };
  }
  const sheet = SHEET_RE.exec(route);
  if (sheet) {
    const key = keyInPath(sheet[1]);
    const roster = key ? await loadPublicRoster(q, key) : null;
    // A player page never names the player in a preview: the team is enough.
    if (!roster)
      return { title: 'Team sheet', description: 'A team sheet on Sagan', noindex: true };
    return {
      title: roster.teamName,
      description: clip(roster.teamNotes.trim() || 'Team sheet on Sagan', 200),
      noindex: true,
    };
  }
  // A shared play count names children: by link only, and the preview names nobody.
  if (PLAY_COUNT_SHARE_RE.test(route))
    return { title: 'Play count', description: 'A live play count on Sagan', noindex: true };
  if (TAG_RE.test(route))
    return { title: 'Tagged games', description: 'Live games on Sagan', noindex: true };
  return null;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Writes the preview into index.html: title, Open Graph, Twitter card and robots tags. */
export function injectPreview(
  html: string,
  preview: Preview,
  pageUrl: string,
  origin: string,
): string {
  const title = clip(preview.title, 120);
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    `<title>${escapeHtml(title)} · Sagan</title>`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Sagan'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:url', pageUrl),
    meta('property', 'og:image', `${origin}${PREVIEW_IMAGE_PATH}`),
    meta('property', 'og:image:alt', 'Sagan logo'),
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', preview.description),
    meta('name', 'twitter:image', `${origin}${PREVIEW_IMAGE_PATH}`),
    ...(preview.noindex ? [meta('name', 'robots', 'noindex')] : []),
  ].join('\n    ');
  // Function replacers: in a replacement string, $&, $', $$ and dollar-backtick typed in a team
  // name would be patterns (dollar-backtick copies everything before </head> once more).
  const withoutTitle = html.replace(/<title>[^<]*<\/title>/, () => '');
  return withoutTitle.replace('</head>', () => `    ${tags}\n  </head>`);
}
