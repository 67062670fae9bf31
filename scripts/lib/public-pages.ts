// One of every public page of SPEC §2, seeded through the API as the phone apps would, for the
// checks that judge the built app from outside (scripts/page-audit.ts) and bench/web.ts.
import sharp from 'sharp';
import { API_PATH } from '@sagan/shared/http-paths';
import { BASE_PATH } from '@sagan/shared/routes';
import { signInLocal } from './local-sign-in.ts';

export interface PublicPage {
  name: string;
  /** The path under the base path. */
  path: string;
  /** Meant to stay out of search engines (team sheets, shared play counts: children's names). */
  noindex: boolean;
}

/** Who seeds the pages: signed in again, the same local user, whose Scoreboards list them. */
const SEEDER = 'Page Audit Coach';

/** The seeder's own Scoreboards page (per user: rendered for their session), as HTML. */
export async function seederScoreboardsHtml(base: string): Promise<string> {
  const { cookie } = await signInLocal(base, SEEDER);
  const res = await fetch(`${base}${BASE_PATH}/scoreboards`, {
    headers: { accept: 'text/html', cookie },
  });
  if (res.status !== 200) throw new Error(`signed-in scoreboards: status ${res.status}`);
  return res.text();
}

/**
 * A portrait phone photo of a player, the player page's largest paint: 1200×1600, stored by
 * the server at 768×1024 (about 200 KB of JPEG). Blurred noise, so it weighs what a photo
 * does (a flat colour would weigh nothing), from a fixed seed, so every run sends the same
 * bytes.
 */
async function playerPhoto(): Promise<Buffer> {
  const [width, height] = [1200, 1600];
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 28;
  for (let i = 0; i < pixels.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    pixels[i] = seed >>> 24;
  }
  const raw = { raw: { width, height, channels: 3 as const } };
  const blurred = await sharp(pixels, raw).blur(1.2).toBuffer();
  return sharp(blurred, raw).jpeg({ quality: 90 }).toBuffer();
}

/** Seeds a game (tagged, with a comment), a published sheet and a shared play count. */
export async function seedPublicPages(base: string): Promise<PublicPage[]> {
  const { call, cookie } = await signInLocal(base, SEEDER);
  const { gameKey } = await call<{ gameKey: string }>('POST', '/games', {
    gameName: 'Cup final',
    sportID: 7,
    homeTeamName: 'Lions',
    awayTeamName: 'Tigers',
    gamePeriod: 'Final',
  });
  await call('PATCH', `/games/${gameKey}`, { homeScore: 3, awayScore: 1, base1: true, outs: 2 });
  await call('POST', `/games/${gameKey}/comments`, { gameComment: 'What a catch!' });
  const { tags } = await call<{ tags: { key: string }[] }>('PUT', `/games/${gameKey}/tags`, {
    tags: ['CupFinal'],
  });
  const { teamKey } = await call<{ teamKey: string }>('POST', '/teams');
  await call('PATCH', `/teams/${teamKey}`, { teamName: 'Riverside Lions', teamNotes: 'U10' });
  await call('POST', `/teams/${teamKey}/players/bulk`, {
    text: '7 Ada Lovelace\n12 Grace Hopper\n3 Alan Turing',
  });
  const sheet = await call<{ roster: { key: string; playerName: string }[] }>(
    'GET',
    `/teams/${teamKey}`,
  );
  const playerKey = sheet.roster.find((p) => p.playerName === 'Ada Lovelace')!.key;
  const photo = await fetch(`${base}${API_PATH}/teams/${teamKey}/players/${playerKey}/photo`, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg', 'x-sagan-request': '1', cookie },
    body: new Uint8Array(await playerPhoto()),
  });
  if (!photo.ok) throw new Error(`player photo: ${photo.status} ${await photo.text()}`);
  const { publishedAsKey } = await call<{ publishedAsKey: string }>(
    'POST',
    `/teams/${teamKey}/publish`,
  );
  const { gameKey: countKey } = await call<{ gameKey: string }>('POST', '/playcounts', {
    teamKey,
    gameName: 'Lions v Owls',
    gameDate: '2026-05-11',
    minPlays: 3,
    playersPerSnap: 2,
  });
  await call('POST', `/playcounts/${countKey}/snaps`, { quarter: 1, players: [playerKey] });
  const { shareKey } = await call<{ shareKey: string }>('PUT', `/playcounts/${countKey}/share`);
  return [
    { name: 'dashboard', path: '/', noindex: false },
    { name: 'login', path: '/login', noindex: false },
    { name: 'scoreboards', path: '/scoreboards', noindex: false },
    { name: 'tagged list', path: `/taggedscoreboards/${tags[0]!.key}`, noindex: true },
    { name: 'scoreboard', path: `/viewscoreboard/${gameKey}`, noindex: true },
    { name: 'mini card', path: `/viewscoreboardmini/${gameKey}`, noindex: true },
    { name: 'team sheet', path: `/teamsheets/${publishedAsKey}`, noindex: true },
    { name: 'player page', path: `/teamsheets/${publishedAsKey}/${playerKey}`, noindex: true },
    { name: 'play-count link', path: `/playcountshare/${shareKey}`, noindex: true },
  ];
}

export const pageUrl = (base: string, page: PublicPage) => `${base}${BASE_PATH}${page.path}`;
