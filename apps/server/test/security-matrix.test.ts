import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { anonymous, API, databaseKinds, listenWs, useTempDir, useTestApp } from './helpers.ts';
import { sampleGame } from './playcounts-fixtures.ts';
import {
  BACKGROUND_WRITES,
  makeWorld,
  randomKey,
  routeTable,
  tableVersions,
  tinyPng,
  type World,
} from './security-world.ts';
import { TestSocket } from './ws-client.ts';

/**
 * Access control, tested the way Firebase rules are tested: every endpoint of the real route
 * table × {anonymous, another signed-in user, a co-scorer, owner}, each cell asserting its answer, and that a refused
 * request changed no row of any table. A route without an entry here fails the suite, so a new
 * endpoint cannot be forgotten.
 */
type Roles = readonly [anonymous: number, other: number, owner: number];
interface Entry {
  /** The request, built against a fresh world. */
  req(w: World): Promise<InjectOptions> | InjectOptions;
  expect: Roles;
  /** A co-scorer of the world's game and sideline count; unless said, as another user. */
  scorer?: number;
  /** The owner with every key in the URL replaced by a guessed one. */
  guess?: number;
  /** Routes that exist only when the web app is built. */
  optional?: boolean;
  /** The owner's call spoils the shared world (deletes or signs out): use a fresh one. */
  fresh?: boolean;
}

const PUBLIC_200: Roles = [200, 200, 200];
const SIGNED_IN: Roles = [401, 200, 200];
/** Owner-only, and another user learns nothing: the key answers as if it did not exist. */
const OWNER_HIDDEN: Roles = [401, 404, 200];
const OWNER_403: Roles = [401, 403, 200];

const get = (url: string): InjectOptions => ({ method: 'GET', url });
const send = (
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
): InjectOptions => ({ method, url, ...(payload === undefined ? {} : { payload }) });

/** A new invitation of the world's owner: its link's token. */
async function inviteToken(w: World): Promise<string> {
  const res = await w.owner.request(send('POST', `${API}/games/${w.gameKey}/coscorers`));
  return res.json<{ token: string }>().token;
}

/** A new invitation of the world's owner to a game or count: its id, to revoke. */
async function inviteId(w: World, kind: 'games' | 'playcounts', key: string): Promise<string> {
  const res = await w.owner.request(send('POST', `${API}/${kind}/${key}/coscorers`));
  return res.json<{ id: string }>().id;
}

const matrix: Record<string, Entry> = {
  // The web app's entry points and the API documentation are public.
  'GET /': { req: () => get('/'), expect: [302, 302, 302] },
  'GET /apps/sagan': { req: () => get('/apps/sagan'), expect: [302, 302, 302] },
  'GET /apps/sagan/': { req: () => get('/apps/sagan/'), expect: PUBLIC_200, optional: true },
  'GET /apps/sagan/*': {
    req: () => get('/apps/sagan/favicon.svg'),
    expect: PUBLIC_200,
    optional: true,
  },
  'GET /apps/sagan/api/docs': { req: () => get(`${API}/docs`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/docs/': { req: () => get(`${API}/docs/`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/docs/*': {
    req: () => get(`${API}/docs/static/swagger-ui.css`),
    expect: PUBLIC_200,
  },
  'GET /apps/sagan/api/docs/json': { req: () => get(`${API}/docs/json`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/docs/yaml': { req: () => get(`${API}/docs/yaml`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/docs/static/index.html': {
    req: () => get(`${API}/docs/static/index.html`),
    expect: [302, 302, 302],
  },
  'GET /apps/sagan/api/docs/static/swagger-initializer.js': {
    req: () => get(`${API}/docs/static/swagger-initializer.js`),
    expect: PUBLIC_200,
  },
  // A plain GET on the WebSocket path (no upgrade) is not a WebSocket.
  'GET /apps/sagan/ws': { req: () => get('/apps/sagan/ws'), expect: [404, 404, 404] },
  'GET /apps/sagan/api/health': { req: () => get(`${API}/health`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/config': { req: () => get(`${API}/config`), expect: PUBLIC_200 },
  // A person's own data: only ever the caller's (each user gets their own).
  'GET /apps/sagan/api/me/data': { req: () => get(`${API}/me/data`), expect: SIGNED_IN },
  'POST /apps/sagan/api/me/delete': {
    req: () => send('POST', `${API}/me/delete`, { confirm: 'delete my account' }),
    expect: SIGNED_IN,
    fresh: true,
  },
  // Only `npm run backup` on the server's machine, with the token from its data folder.
  'POST /apps/sagan/api/ops/backup': {
    req: () => ({
      ...send('POST', `${API}/ops/backup`),
      headers: { 'x-sagan-backup-token': 'guess' },
    }),
    expect: [404, 404, 404],
  },
  // Operators' figures: only with METRICS_TOKEN's bearer (unset here: nobody).
  'GET /metrics': { req: () => get('/metrics'), expect: [404, 404, 404] },

  // Identity (DESIGN §6).
  'POST /apps/sagan/api/auth/google': {
    req: () => send('POST', `${API}/auth/google`, { credential: 'x'.repeat(40) }),
    expect: [404, 404, 404], // Google is not configured in tests
  },
  'POST /apps/sagan/api/auth/local': {
    fresh: true,
    req: () => send('POST', `${API}/auth/local`, { displayName: `Someone ${randomKey()}` }),
    expect: PUBLIC_200,
  },
  'POST /apps/sagan/api/auth/logout': {
    fresh: true,
    req: () => send('POST', `${API}/auth/logout`),
    expect: PUBLIC_200,
  },
  'POST /apps/sagan/api/auth/logout-all': {
    fresh: true,
    req: () => send('POST', `${API}/auth/logout-all`),
    expect: SIGNED_IN,
  },
  'GET /apps/sagan/api/auth/me': { req: () => get(`${API}/auth/me`), expect: SIGNED_IN },
  // The web app's check: nobody signed in is an answer, not a refusal (DESIGN §9).
  'GET /apps/sagan/api/auth/session': { req: () => get(`${API}/auth/session`), expect: PUBLIC_200 },

  // Scorekeeping: the game's owner only (DESIGN §6); another user gets 403 as the phone app
  // must learn it is not the scorekeeper.
  'POST /apps/sagan/api/games': {
    req: () => send('POST', `${API}/games`, { gameName: 'New' }),
    expect: SIGNED_IN,
  },
  // Scoring is also a co-scorer's (DESIGN §10); the rest stays the owner's.
  'PATCH /apps/sagan/api/games/:gameKey': {
    req: (w) => send('PATCH', `${API}/games/${w.gameKey}`, { homeScore: 3 }),
    expect: OWNER_403,
    scorer: 200,
    guess: 404,
  },
  'POST /apps/sagan/api/games/:gameKey/events': {
    req: (w) =>
      send('POST', `${API}/games/${w.gameKey}/events`, {
        action: { kind: 'score', team: 'home', by: 1 },
        device: 'matrix',
      }),
    expect: OWNER_403,
    scorer: 200,
    guess: 404,
  },
  'POST /apps/sagan/api/games/:gameKey/clock': {
    req: (w) =>
      send('POST', `${API}/games/${w.gameKey}/clock`, { formattedTime: '12:00', seconds: 720 }),
    expect: OWNER_403,
    scorer: 200,
    guess: 404,
  },
  'POST /apps/sagan/api/games/:gameKey/clock/control': {
    req: (w) => send('POST', `${API}/games/${w.gameKey}/clock/control`, { action: 'start' }),
    expect: OWNER_403,
    scorer: 200,
    guess: 404,
  },
  'DELETE /apps/sagan/api/games/:gameKey': {
    fresh: true,
    req: (w) => send('DELETE', `${API}/games/${w.gameKey}`),
    expect: OWNER_403,
    guess: 404,
  },
  'PATCH /apps/sagan/api/games/:gameKey/messages/:messageId': {
    req: (w) => send('PATCH', `${API}/games/${w.gameKey}/messages/${w.messageId}`, { read: true }),
    expect: OWNER_403,
    guess: 404,
  },
  'POST /apps/sagan/api/games/:gameKey/comments': {
    req: (w) => send('POST', `${API}/games/${w.gameKey}/comments`, { gameComment: 'Goal' }),
    expect: OWNER_403,
    guess: 404,
  },
  'PUT /apps/sagan/api/games/:gameKey/tags': {
    req: (w) => send('PUT', `${API}/games/${w.gameKey}/tags`, { tags: ['Hijacked'] }),
    expect: OWNER_403,
    guess: 404,
  },
  'GET /apps/sagan/api/games/:gameKey/messages': {
    req: (w) => get(`${API}/games/${w.gameKey}/messages`),
    expect: OWNER_403,
    guess: 404,
  },

  // Viewers: public reads; bookmarks, follows and messages need a signed-in user.
  'GET /apps/sagan/api/games/recent': { req: () => get(`${API}/games/recent`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/games/:gameKey': {
    req: (w) => get(`${API}/games/${w.gameKey}`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'GET /apps/sagan/api/games/:gameKey/qr.png': {
    req: (w) => get(`${API}/games/${w.gameKey}/qr.png`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'GET /apps/sagan/api/games/:gameKey/watchers': {
    req: (w) => get(`${API}/games/${w.gameKey}/watchers`),
    expect: PUBLIC_200,
    guess: 404,
  },
  // Anyone signed in may report a game, once (a second report answers 200 and adds nothing).
  'POST /apps/sagan/api/games/:gameKey/report': {
    req: (w) => send('POST', `${API}/games/${w.gameKey}/report`, { reason: 'Rude' }),
    expect: SIGNED_IN,
    guess: 404,
  },
  'POST /apps/sagan/api/games/:gameKey/comments/:commentId/report': {
    req: (w) =>
      send('POST', `${API}/games/${w.gameKey}/comments/${w.commentId}/report`, { reason: 'Rude' }),
    expect: SIGNED_IN,
    guess: 404,
  },
  // The operators' queue: nobody here is an operator, so every call is a path that is not.
  // What the operators did to the caller's games: only ever the caller's, and dismissed by them.
  'GET /apps/sagan/api/me/notices': { req: () => get(`${API}/me/notices`), expect: SIGNED_IN },
  'POST /apps/sagan/api/me/notices/:id/seen': {
    req: (w) => send('POST', `${API}/me/notices/${w.noticeId}/seen`),
    expect: OWNER_HIDDEN,
  },
  'GET /apps/sagan/api/admin/reports': {
    req: () => get(`${API}/admin/reports`),
    expect: [404, 404, 404],
  },
  'POST /apps/sagan/api/admin/games/:gameKey/:action': {
    req: (w) => send('POST', `${API}/admin/games/${w.gameKey}/hide`),
    expect: [404, 404, 404],
  },
  'POST /apps/sagan/api/admin/comments/:commentId/:action': {
    req: (w) => send('POST', `${API}/admin/comments/${w.commentId}/hide`),
    expect: [404, 404, 404],
  },
  'POST /apps/sagan/api/admin/users/:uid/:action': {
    req: (w) => send('POST', `${API}/admin/users/${encodeURIComponent(w.other.uid)}/block`),
    expect: [404, 404, 404],
  },
  'POST /apps/sagan/api/admin/tags/:tagID/:action': {
    req: (w) => send('POST', `${API}/admin/tags/${w.tagKey}/hide`),
    expect: [404, 404, 404],
  },
  'POST /apps/sagan/api/games/:gameKey/scorekeeper-message': {
    req: (w) =>
      send('POST', `${API}/games/${w.gameKey}/scorekeeper-message`, {
        scoreKeeperMessage: 'Nice game',
      }),
    expect: SIGNED_IN,
    guess: 404,
  },
  'GET /apps/sagan/api/tags': { req: () => get(`${API}/tags`), expect: PUBLIC_200 },
  'GET /apps/sagan/api/tags/:tagID': {
    req: (w) => get(`${API}/tags/${w.tagKey}`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'GET /apps/sagan/api/me/games': { req: () => get(`${API}/me/games`), expect: SIGNED_IN },
  'GET /apps/sagan/api/me/favorite-scoreboards': {
    req: () => get(`${API}/me/favorite-scoreboards`),
    expect: SIGNED_IN,
  },
  'PUT /apps/sagan/api/me/favorite-scoreboards/:gameKey': {
    req: (w) => send('PUT', `${API}/me/favorite-scoreboards/${w.gameKey}`),
    expect: SIGNED_IN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/me/favorite-scoreboards/:gameKey': {
    req: (w) => send('DELETE', `${API}/me/favorite-scoreboards/${w.gameKey}`),
    expect: SIGNED_IN,
  },
  'GET /apps/sagan/api/me/followed-tags': {
    req: () => get(`${API}/me/followed-tags`),
    expect: SIGNED_IN,
  },
  'PUT /apps/sagan/api/me/followed-tags/:tagID': {
    req: (w) => send('PUT', `${API}/me/followed-tags/${w.tagKey}`),
    expect: SIGNED_IN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/me/followed-tags/:tagID': {
    req: (w) => send('DELETE', `${API}/me/followed-tags/${w.tagKey}`),
    expect: SIGNED_IN,
  },

  // Team sheets: private to their owner (SPEC §6); another user's key answers not-found.
  'GET /apps/sagan/api/teams': { req: () => get(`${API}/teams`), expect: SIGNED_IN },
  'POST /apps/sagan/api/teams': {
    req: (w) => send('POST', `${API}/teams`, { uid: w.other.uid }),
    expect: [401, 201, 201],
  },
  'GET /apps/sagan/api/teams/:teamKey': {
    req: (w) => get(`${API}/teams/${w.teamKey}`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PATCH /apps/sagan/api/teams/:teamKey': {
    req: (w) =>
      send('PATCH', `${API}/teams/${w.teamKey}`, {
        teamName: 'Renamed',
        teamNotes: '',
        uid: w.other.uid,
      }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/teams/:teamKey': {
    fresh: true,
    req: (w) => send('DELETE', `${API}/teams/${w.teamKey}`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PUT /apps/sagan/api/teams/:teamKey/players/:playerKey': {
    req: (w) =>
      send('PUT', `${API}/teams/${w.teamKey}/players/${w.playerKey}`, {
        jersey: '9',
        playerName: 'Changed',
        playerNotes: '',
      }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/teams/:teamKey/players/:playerKey': {
    fresh: true,
    req: (w) => send('DELETE', `${API}/teams/${w.teamKey}/players/${w.playerKey}`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'POST /apps/sagan/api/teams/:teamKey/players/bulk': {
    req: (w) => send('POST', `${API}/teams/${w.teamKey}/players/bulk`, { text: '1 Ann\n2 Bo' }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PUT /apps/sagan/api/teams/:teamKey/players/:playerKey/photo': {
    fresh: true, // replacing the photo deletes the shared world's file
    req: async (w) => ({
      method: 'PUT',
      url: `${API}/teams/${w.teamKey}/players/${w.playerKey}/photo`,
      headers: { 'content-type': 'image/png' },
      payload: await tinyPng(),
    }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'POST /apps/sagan/api/teams/:teamKey/publish': {
    req: (w) => send('POST', `${API}/teams/${w.teamKey}/publish`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/teams/:teamKey/publish': {
    fresh: true,
    req: (w) => send('DELETE', `${API}/teams/${w.teamKey}/publish`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'POST /apps/sagan/api/teams/:teamKey/groups': {
    req: (w) => send('POST', `${API}/teams/${w.teamKey}/groups`, { groupName: 'Defense' }),
    expect: [401, 404, 201],
    guess: 404,
  },
  'PATCH /apps/sagan/api/teams/:teamKey/groups/:groupKey': {
    req: (w) =>
      send('PATCH', `${API}/teams/${w.teamKey}/groups/${w.groupKey}`, { groupName: 'Renamed' }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PUT /apps/sagan/api/teams/:teamKey/groups/:groupKey/members/:playerKey': {
    req: (w) =>
      send('PUT', `${API}/teams/${w.teamKey}/groups/${w.groupKey}/members/${w.playerKey}`, {
        location: 1,
      }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  // Privacy of the public copy: the owner's setting, hidden from everyone else.
  'GET /apps/sagan/api/teams/:teamKey/privacy': {
    req: (w) => get(`${API}/teams/${w.teamKey}/privacy`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PUT /apps/sagan/api/teams/:teamKey/privacy': {
    req: (w) =>
      send('PUT', `${API}/teams/${w.teamKey}/privacy`, { initialsOnly: true, hidePhotos: true }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  // Published copies are public by link; following one needs a signed-in user.
  'GET /apps/sagan/api/rosters/:publishedAsKey': {
    req: (w) => get(`${API}/rosters/${w.publishedAsKey}`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'GET /apps/sagan/api/rosters/:publishedAsKey/qr.png': {
    req: (w) => get(`${API}/rosters/${w.publishedAsKey}/qr.png`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'PUT /apps/sagan/api/me/favorite-rosters/:publishedAsKey': {
    req: (w) => send('PUT', `${API}/me/favorite-rosters/${w.publishedAsKey}`),
    expect: SIGNED_IN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/me/favorite-rosters/:publishedAsKey': {
    req: (w) => send('DELETE', `${API}/me/favorite-rosters/${w.publishedAsKey}`),
    expect: SIGNED_IN,
  },
  // Photos: the public one only through the published sheet, the rest through the owner.
  'GET /apps/sagan/api/rosters/:publishedAsKey/players/:playerKey/photo': {
    fresh: true, // the shared world's photos get hidden by the privacy cell
    req: (w) => get(`${API}/rosters/${w.publishedAsKey}/players/${w.playerKey}/photo`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'GET /apps/sagan/api/teams/:teamKey/players/:playerKey/photo': {
    req: (w) => get(`${API}/teams/${w.teamKey}/players/${w.playerKey}/photo`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },

  // Play counts: private to their owner everywhere (SPEC §6).
  'GET /apps/sagan/api/playcounts': { req: () => get(`${API}/playcounts`), expect: SIGNED_IN },
  'GET /apps/sagan/api/playcounts/:gameKey': {
    req: (w) => get(`${API}/playcounts/${w.playCountKey}`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PUT /apps/sagan/api/playcounts/:gameKey': {
    req: (w) =>
      send('PUT', `${API}/playcounts/${w.playCountKey}`, {
        ...sampleGame({ gameName: 'Taken over' }),
        uid: w.other.uid,
      }),
    expect: OWNER_403,
    guess: 201, // a new key creates the caller's own game
  },
  'GET /apps/sagan/api/playcounts/:gameKey/players/:playerKey/photo': {
    fresh: true, // the shared world's play count is rewritten by the PUT cell
    req: (w) => get(`${API}/playcounts/${w.playCountKey}/players/${w.playCountPlayer}/photo`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'PATCH /apps/sagan/api/playcounts/:gameKey': {
    req: (w) => send('PATCH', `${API}/playcounts/${w.playCountKey}`, { archived: true }),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  // The sideline counter: a count of one's own team sheet, snaps and the shared link.
  'POST /apps/sagan/api/playcounts': {
    req: (w) =>
      send('POST', `${API}/playcounts`, { teamKey: w.teamKey, gameName: 'X', gameDate: 'Today' }),
    expect: [401, 404, 201],
  },
  'POST /apps/sagan/api/playcounts/:gameKey/snaps': {
    req: (w) =>
      send('POST', `${API}/playcounts/${w.sidelineKey}/snaps`, {
        quarter: 1,
        players: [w.playerKey],
      }),
    expect: [401, 404, 201],
    scorer: 201,
    guess: 404,
  },
  'DELETE /apps/sagan/api/playcounts/:gameKey/snaps/last': {
    req: (w) => send('DELETE', `${API}/playcounts/${w.sidelineKey}/snaps/last`),
    expect: OWNER_HIDDEN,
    scorer: 200,
    guess: 404,
  },
  'PUT /apps/sagan/api/playcounts/:gameKey/share': {
    req: (w) => send('PUT', `${API}/playcounts/${w.sidelineKey}/share`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/playcounts/:gameKey/share': {
    fresh: true, // revokes the link the shared-view cells read
    req: (w) => send('DELETE', `${API}/playcounts/${w.sidelineKey}/share`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  // Whoever holds the unguessable link may read it; nothing else is public.
  'GET /apps/sagan/api/playcount-shares/:shareKey': {
    req: (w) => get(`${API}/playcount-shares/${w.shareKey}`),
    expect: PUBLIC_200,
    guess: 404,
  },
  'GET /apps/sagan/api/playcount-shares/:shareKey/players/:playerKey/photo': {
    fresh: true, // the shared world's privacy cell hides photos
    req: (w) => get(`${API}/playcount-shares/${w.shareKey}/players/${w.playerKey}/photo`),
    expect: PUBLIC_200,
    guess: 404,
  },
  // Who scored: the owner links a sheet of theirs; the scorers read the linked players.
  'GET /apps/sagan/api/games/:gameKey/sheets': {
    req: (w) => get(`${API}/games/${w.gameKey}/sheets`),
    expect: OWNER_403,
    scorer: 200,
    guess: 404,
  },
  'PUT /apps/sagan/api/games/:gameKey/sheets/:side': {
    req: (w) => send('PUT', `${API}/games/${w.gameKey}/sheets/home`, { teamKey: w.teamKey }),
    expect: OWNER_403,
    guess: 404,
  },
  // Co-scorers: inviting, listing and revoking are the owner's; any signed-in user redeems.
  'POST /apps/sagan/api/games/:gameKey/coscorers': {
    req: (w) => send('POST', `${API}/games/${w.gameKey}/coscorers`),
    expect: OWNER_403,
    guess: 404,
  },
  'GET /apps/sagan/api/games/:gameKey/coscorers': {
    req: (w) => get(`${API}/games/${w.gameKey}/coscorers`),
    expect: OWNER_403,
    guess: 404,
  },
  'DELETE /apps/sagan/api/games/:gameKey/coscorers/:coscorerId': {
    req: async (w) =>
      send(
        'DELETE',
        `${API}/games/${w.gameKey}/coscorers/${await inviteId(w, 'games', w.gameKey)}`,
      ),
    expect: OWNER_403,
    guess: 404,
  },
  'POST /apps/sagan/api/playcounts/:gameKey/coscorers': {
    req: (w) => send('POST', `${API}/playcounts/${w.sidelineKey}/coscorers`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'GET /apps/sagan/api/playcounts/:gameKey/coscorers': {
    req: (w) => get(`${API}/playcounts/${w.sidelineKey}/coscorers`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'DELETE /apps/sagan/api/playcounts/:gameKey/coscorers/:coscorerId': {
    req: async (w) =>
      send(
        'DELETE',
        `${API}/playcounts/${w.sidelineKey}/coscorers/${await inviteId(w, 'playcounts', w.sidelineKey)}`,
      ),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  // A new link each time: another user becomes a co-scorer (a fresh world, then), the game's
  // co-scorer already is one and its owner owns it: both refused, the link left unused.
  'POST /apps/sagan/api/coscorers/redeem': {
    fresh: true,
    req: async (w) => send('POST', `${API}/coscorers/redeem`, { token: await inviteToken(w) }),
    expect: [401, 200, 409],
    scorer: 409,
  },
  'GET /apps/sagan/api/playcount-seasons/:teamKey': {
    req: (w) => get(`${API}/playcount-seasons/${w.teamKey}`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
  'GET /apps/sagan/api/scoring-seasons/:teamKey': {
    req: (w) => get(`${API}/scoring-seasons/${w.teamKey}`),
    expect: OWNER_HIDDEN,
    guess: 404,
  },
};

const ROLE_NAMES = ['anonymous', 'another user', 'a co-scorer', 'owner'] as const;

/** The same API path as a browser may send it: one letter of a fixed segment percent-encoded. */
function encodedVariants(url: string): string[] {
  const rest = url.slice(API.length + 1); // after '/apps/sagan/api/'
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  return [
    `/apps/sagan/%61pi/${rest}`,
    `/%61pps/sagan/api/${rest}`,
    `/apps/sagan/ap%69/${rest}`,
    `/apps/%73agan/api/${rest}`,
    `/app%73/sagan/ap%69/${rest}`,
    `/apps/sagan/api/${hex(rest[0]!)}${rest.slice(1)}`,
  ];
}

/** Replaces every key of the world in a URL by a guessed one. */
function guessed(url: string, w: World): string {
  let out = url;
  for (const key of [
    w.gameKey,
    w.tagKey,
    w.teamKey,
    w.playerKey,
    w.groupKey,
    w.playCountKey,
    w.sidelineKey,
    w.shareKey,
  ]) {
    out = out.replaceAll(key, randomKey());
  }
  return out.replaceAll(w.publishedAsKey, randomKey());
}

describe.each(databaseKinds())('authorization matrix on $name', (kind) => {
  const dataDir = useTempDir('sagan-matrix-');
  const t = useTestApp(kind, () => ({ config: { dataDir: dataDir() } }));

  it('has an entry for every route of the server, and no stale ones', () => {
    const routes = routeTable(t.app);
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.filter((r) => !matrix[r]);
    expect(missing, 'routes without an authorization matrix entry').toEqual([]);
    const stale = Object.keys(matrix).filter((r) => !matrix[r]!.optional && !routes.includes(r));
    expect(stale, 'matrix entries for routes that no longer exist').toEqual([]);
  });

  it('the OpenAPI document says a user is needed exactly where an anonymous caller gets 401', () => {
    type Op = { security?: Record<string, string[]>[] };
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Op>> };
    const disagreements: string[] = [];
    let operations = 0;
    for (const [docPath, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const route = `${method.toUpperCase()} ${docPath.replace(/\{(\w+)\}/g, ':$1')}`;
        const entry = matrix[route];
        if (!entry) {
          disagreements.push(`${route}: not in the matrix`);
          continue;
        }
        // openapi.ts derives this from a 401 in the route's response schema: a route that
        // needs a user declares it (`...refusals`), or the document calls it public.
        const needsUser =
          !!op.security?.length &&
          op.security.every((req) => 'googleIdToken' in req || 'session' in req);
        if (needsUser !== (entry.expect[0] === 401)) {
          disagreements.push(
            `${route}: document says ${needsUser ? 'signed in' : 'public'}, anonymous gets ${entry.expect[0]}`,
          );
        }
      }
    }
    expect(operations).toBeGreaterThan(40);
    expect(disagreements).toEqual([]);
  });

  let cells = 0;
  const present = () => new Set(routeTable(t.app));
  let shared: World | undefined;

  it.each(Object.keys(matrix))('%s', async (route) => {
    if (!present().has(route)) return; // an optional route, absent here
    const entry = matrix[route]!;
    // Worlds are costly (a photo goes through sharp), so cells share one unless they spoil it.
    const w = entry.fresh ? await makeWorld(t.app) : (shared ??= await makeWorld(t.app));
    const callers = [anonymous(t.app), w.other.request, w.scorer.request, w.owner.request];
    const [anon, other, owner] = entry.expect;
    const wants = [anon, other, entry.scorer ?? other, owner];
    for (let role = 0; role < 4; role++) {
      const opts = await entry.req(w);
      const before = await tableVersions(t.app.db);
      const res = await callers[role]!(opts);
      cells++;
      const want = wants[role]!;
      expect(res.statusCode, `${ROLE_NAMES[role]}: ${res.body.slice(0, 200)}`).toBe(want);
      if (want >= 400) {
        expect(
          await tableVersions(t.app.db),
          `${ROLE_NAMES[role]} was refused but changed rows`,
        ).toBe(before);
      }
    }
    if (entry.guess !== undefined) {
      const opts = await entry.req(w);
      const before = await tableVersions(t.app.db);
      const res = await w.owner.request({ ...opts, url: guessed(opts.url as string, w) });
      cells++;
      expect(res.statusCode, `guessed key: ${res.body.slice(0, 200)}`).toBe(entry.guess);
      if (entry.guess >= 400) expect(await tableVersions(t.app.db)).toBe(before);
    }
  });

  it('the check that a refused request wrote nothing sees a row rewritten as it was, in every table', async () => {
    shared ??= await makeWorld(t.app);
    const tables = await t.db.query<{ name: string; column: string }>(
      `SELECT c.relname AS name,
              (SELECT a.attname FROM pg_attribute a
                WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                  AND a.attidentity = '' AND a.attgenerated = ''
                ORDER BY a.attnum LIMIT 1) AS column
         FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
        ORDER BY 1`,
    );
    const rewritten: string[] = [];
    const unseen: string[] = [];
    // Prepared before the transactions: on PGlite a statement outside one waits for it to end.
    await tableVersions(t.db);
    for (const { name, column } of tables) {
      const rows = BACKGROUND_WRITES[name];
      if (rows === null) continue;
      // Rolled back: the shared world stays as it was.
      await expect(
        t.db.tx(async (q) => {
          const before = await tableVersions(t.db, q);
          const one = await q.query(
            `UPDATE "${name}" SET "${column}" = "${column}"
              WHERE ctid = (SELECT ctid FROM "${name}" WHERE ${rows ?? 'true'} LIMIT 1)
              RETURNING 1`,
          );
          if (one.length) {
            rewritten.push(name);
            if ((await tableVersions(t.db, q)) === before) unseen.push(name);
          }
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
    }
    expect(unseen).toEqual([]);
    // The world puts rows in most tables: the ones it leaves empty change only by an insert,
    // which the row count shows.
    expect(rewritten.length).toBeGreaterThan(tables.length / 2);
  });

  it('CSRF: every mutating route, its path percent-encoded, from a foreign or null Origin', async () => {
    const mutating = routeTable(t.app).filter((r) => !/^(GET|HEAD|OPTIONS) /.test(r));
    expect(mutating.length).toBeGreaterThan(20);
    let forged = 0;
    for (const route of mutating) {
      const entry = matrix[route]!;
      // Nothing below may change anything, except the anonymous routing probes (a sign-in).
      const w = entry.fresh ? await makeWorld(t.app) : (shared ??= await makeWorld(t.app));
      const opts = await entry.req(w);
      const variants = encodedVariants(opts.url as string);
      for (const url of variants) {
        // The router takes the encoded path to the route: an anonymous caller with the header
        // gets the route's own answer, not a not-found.
        const probe = await anonymous(t.app)({ ...opts, url });
        expect(probe.statusCode, `${route} as ${url} is routed`).toBe(entry.expect[0]);
      }
      const before = await tableVersions(t.app.db);
      for (const url of variants) {
        for (const origin of ['http://evil.example', 'null']) {
          for (const headers of [
            { cookie: w.owner.cookie, origin },
            { cookie: w.owner.cookie, origin, 'x-sagan-request': '1' },
          ]) {
            const res = await t.app.inject({
              ...opts,
              url,
              headers: { ...(opts.headers ?? {}), ...headers },
            });
            forged++;
            expect(res.statusCode, `${route} as ${url} from ${origin}`).toBe(403);
            expect(res.cookies, `${route} as ${url}`).toHaveLength(0);
          }
        }
      }
      expect(await tableVersions(t.app.db), `${route}: a refused forgery changed rows`).toBe(
        before,
      );
    }
    console.log(`encoded-path CSRF (${kind.name}): ${forged} forged requests, all 403`);
    // Thirty requests a route and its tables' versions before and after: 14 s on PGlite on a
    // busy machine, more with the rest of the suite beside it.
  }, 90_000);

  it('owner fields (uid) in a body never hand a write to someone else', async () => {
    const w = await makeWorld(t.app);
    const pcKey = `pc_${randomKey()}`;
    const attempts: InjectOptions[] = [
      { method: 'POST', url: `${API}/games`, payload: { gameName: 'Mine', uid: w.other.uid } },
      { method: 'PATCH', url: `${API}/games/${w.gameKey}`, payload: { uid: w.other.uid } },
      {
        method: 'PUT',
        url: `${API}/playcounts/${pcKey}`,
        payload: { ...sampleGame(), uid: w.other.uid },
      },
      { method: 'POST', url: `${API}/teams`, payload: { uid: w.other.uid } },
    ];
    for (const attempt of attempts) {
      const before = await tableVersions(t.app.db);
      const res = await w.owner.request(attempt);
      // Either refused outright (strict schemas) with nothing written, or the field is ignored.
      if (res.statusCode >= 400) {
        expect(res.statusCode).toBe(400);
        expect(await tableVersions(t.app.db)).toBe(before);
      } else {
        expect(res.body).not.toContain(w.other.uid);
      }
    }
    const taken = await t.app.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM games WHERE uid = $1)
            + (SELECT count(*) FROM play_count_games WHERE uid = $1)
            + (SELECT count(*) FROM teams WHERE uid = $1) AS n`,
      [w.other.uid],
    );
    expect(Number(taken[0]!.n)).toBe(0);
    const [pc] = await t.app.db.query<{ uid: string }>(
      'SELECT uid FROM play_count_games WHERE game_key = $1',
      [pcKey],
    );
    expect(pc?.uid).toBe(w.owner.uid);
  });

  it('realtime: every topic family × anonymous, another user, a co-scorer, owner', async () => {
    const url = await listenWs(t.app);
    const w = await makeWorld(t.app);
    const { owner } = w;
    // anonymous, another user, a co-scorer of the game and the sideline count, the owner
    const PUBLIC = [true, true, true, true] as const;
    const OWNER_ONLY = [false, false, false, true] as const;
    const SCORERS = [false, false, true, true] as const;
    const topicMatrix: Record<string, { topic: string; allowed: readonly boolean[] }> = {
      game: { topic: `game:${w.gameKey}`, allowed: PUBLIC },
      clock: { topic: `clock:${w.gameKey}`, allowed: PUBLIC },
      gamedetail: { topic: `gamedetail:${w.gameKey}`, allowed: PUBLIC },
      gamehistory: { topic: `gamehistory:${w.gameKey}`, allowed: SCORERS },
      // The game's scorers (its owner and co-scorers): what waits for their decision.
      gameheld: { topic: `gameheld:${w.gameKey}`, allowed: SCORERS },
      // The game as its scorers see it, shown even when an operator hid it.
      gameown: { topic: `gameown:${w.gameKey}`, allowed: SCORERS },
      // The box score as its scorers read it, named while the linked sheet is unpublished.
      gamedetailown: { topic: `gamedetailown:${w.gameKey}`, allowed: SCORERS },

      // Who co-scores a game or count: its owner's to see, not its co-scorers'.
      coscorers: { topic: `coscorers:game:${w.gameKey}`, allowed: OWNER_ONLY },
      'coscorers (sideline)': {
        topic: `coscorers:playcount:${w.sidelineKey}`,
        allowed: OWNER_ONLY,
      },
      games: { topic: 'games:recent', allowed: PUBLIC },
      tags: { topic: 'tags', allowed: PUBLIC },
      upcoming: { topic: 'upcoming', allowed: PUBLIC },
      tag: { topic: `tag:${w.tagKey}`, allowed: PUBLIC },
      team: { topic: `team:${w.teamKey}`, allowed: OWNER_ONLY },
      roster: { topic: `roster:${w.publishedAsKey}`, allowed: PUBLIC },
      playcount: { topic: `playcount:${w.playCountKey}`, allowed: OWNER_ONLY },
      'playcount (sideline)': { topic: `playcount:${w.sidelineKey}`, allowed: SCORERS },
      // Public to whoever holds the unguessable key of a shared link.
      playcountshare: { topic: `playcountshare:${w.shareKey}`, allowed: PUBLIC },
      'user:games': { topic: `user:${owner.uid}:games`, allowed: OWNER_ONLY },
      'user:favorites': { topic: `user:${owner.uid}:favorites`, allowed: OWNER_ONLY },
      'user:followedTags': { topic: `user:${owner.uid}:followedTags`, allowed: OWNER_ONLY },
      'user:playcounts': { topic: `user:${owner.uid}:playcounts`, allowed: OWNER_ONLY },
      'user:scoring': { topic: `user:${owner.uid}:scoring`, allowed: OWNER_ONLY },
      'user:notices': { topic: `user:${owner.uid}:notices`, allowed: OWNER_ONLY },
    };
    // Generated from the hub's own registry, so a new topic family cannot be forgotten either.
    const hub = t.app.hub as unknown as {
      defs: Map<string, unknown>;
      userLists: Map<string, unknown>;
    };
    const families = [
      ...[...hub.defs.keys()].filter((p) => p !== 'user'),
      ...[...hub.userLists.keys()].map((l) => `user:${l}`),
    ].sort();
    expect(families).toEqual(
      Object.keys(topicMatrix)
        .filter((f) => !f.includes(' '))
        .sort(),
    );
    // What only its owner may see is private: refused, and dropped from open sockets, once the
    // socket's session has ended (session-end.test.ts).
    const defs = hub.defs as Map<string, { private?: boolean }>;
    for (const [family, { allowed }] of Object.entries(topicMatrix)) {
      expect(!!defs.get(family.split(/[: ]/)[0]!)?.private, family).toBe(allowed !== PUBLIC);
    }

    const sockets = await Promise.all([
      TestSocket.open(url),
      TestSocket.open(url, { cookie: w.other.cookie }),
      TestSocket.open(url, { cookie: w.scorer.cookie }),
      TestSocket.open(url, { cookie: owner.cookie }),
    ]);
    for (const [family, { topic, allowed }] of Object.entries(topicMatrix)) {
      for (let role = 0; role < 4; role++) {
        const ws = sockets[role]!;
        const answer = await ws.subscribeAnswer(topic);
        cells++;
        expect(answer.type, `${family} as ${ROLE_NAMES[role]}`).toBe(
          allowed[role] ? 'state' : 'error',
        );
        if (answer.type === 'state') expect(answer.data, `${family} has data`).not.toBeNull();
        ws.send({ type: 'unsubscribe', topic });
      }
      // Guessing: another user's uid in a user topic, an unknown key in a keyed topic.
      if (family.startsWith('user:')) {
        const ws = sockets[1]!;
        const from = ws.messages.length;
        ws.send({ type: 'subscribe', topic });
        const answer = await ws.waitFor((m) => m.type === 'error' || m.type === 'state', from);
        expect(answer.type).toBe('error');
      }
    }
    for (const ws of sockets) ws.close();
    // Figures for docs/reliability.md.
    console.log(`authorization matrix (${kind.name}): ${cells} cells`);
  });
});
