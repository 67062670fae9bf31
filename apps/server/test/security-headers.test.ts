import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import {
  API,
  buildTestApp,
  databaseKinds,
  postLocalSignIn,
  newTeamWithPlayer,
  signInLocal,
  useTempDir,
  useTestApp,
} from './helpers.ts';
import { tinyPng } from './security-world.ts';

/**
 * Session and browser-header hardening, the whole list in one place (OWASP ASVS 3.3 cookies,
 * 3.4 browser headers).
 * Asserted elsewhere and not repeated here:
 * - session id rotated on sign-in, old one dead: core-auth "signing in again rotates…";
 * - sign-out revokes on the server, replayed cookie refused: core-auth "logout revokes…";
 * - Secure cookie derived from an https PUBLIC_URL: core-config;
 * - rate limits with Retry-After: ratelimit-limits.test.ts.
 * This file checks the headers on every kind of response (not just the page), the one
 * framable route and nothing beside it, and the cookie's attributes through its whole life.
 */
function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

/** Headers that govern a document only: on anything else they are bytes for nothing. */
const DOCUMENT_ONLY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * The headers every response carries, and on documents (pages, SVG) the locked-down policy
 * with its kin. Scripts, JSON and photos carry none of those: they govern documents only, and
 * on them they would be ≈ 900 bytes of each of a page load's ~20 files for nothing.
 */
function expectLockedDown(
  res: LightMyRequestResponse,
  what: string,
  { isolated = true }: { isolated?: boolean } = {},
): void {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-site');
  const type = String(res.headers['content-type'] ?? '');
  if (!/^(text\/html|image\/svg\+xml)\b/.test(type)) {
    for (const name of DOCUMENT_ONLY)
      expect(res.headers[name], `${what} (${type}): no ${name}`).toBeUndefined();
    return;
  }
  for (const name of DOCUMENT_ONLY) {
    if (name === 'cross-origin-opener-policy' && !isolated) continue;
    expect(res.headers[name], `${what}: ${name}`).toBeDefined();
  }
  expect(res.headers['x-frame-options'], what).toBe('SAMEORIGIN');
  // A fan's public page alone goes without it (docs/decisions/0016).
  expect(res.headers['cross-origin-opener-policy'], what).toBe(
    isolated ? 'same-origin-allow-popups' : undefined,
  );
  const csp = directives(res);
  expect(csp.size, `${what}: CSP present`).toBeGreaterThan(0);
  const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
  // Only our own files and Google's sign-in library run: no inline script, no eval.
  expect(scripts, what).toEqual(["'self'", 'https://accounts.google.com/gsi/client']);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
}

describe.each(databaseKinds())('browser headers and session cookie on $name', (kind) => {
  const webDist = useTempDir('sagan-web-', {
    'index.html': '<!doctype html><div id="root"></div>',
    'assets/app-abc123.js': 'console.log(1)',
    'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  });
  const t = useTestApp(kind, () => ({ config: { webDist: webDist() } }));

  it('every kind of response carries the same locked-down headers', async () => {
    const coach = await signInLocal(t.app, 'Header coach');
    const { uploadPhoto } = await newTeamWithPlayer(coach);
    const withPhoto = await uploadPhoto(await tinyPng());
    const photoUrl = withPhoto.json<{ imageURL: string }>().imageURL;
    const responses: [string, LightMyRequestResponse][] = [
      ['page', await t.app.inject({ url: '/apps/sagan/login' })],
      ['unknown page', await t.app.inject({ url: '/apps/sagan/no/such/page' })],
      ['asset', await t.app.inject({ url: '/apps/sagan/assets/app-abc123.js' })],
      ['svg', await t.app.inject({ url: '/apps/sagan/icon.svg' })],
      ['api json', await t.app.inject({ url: `${API}/config` })],
      ['api 401', await t.app.inject({ url: `${API}/auth/me` })],
      ['api 404', await t.app.inject({ url: `${API}/no-such-endpoint` })],
      [
        'api 400',
        await coach.request({ method: 'POST', url: `${API}/auth/local`, payload: { x: 1 } }),
      ],
      ['health', await t.app.inject({ url: `${API}/health` })],
      ['photo', await coach.request({ method: 'GET', url: photoUrl })],
    ];
    for (const [what, res] of responses) expectLockedDown(res, what);
    const documents = responses.filter(([, res]) => res.headers['content-security-policy']);
    expect(documents.map(([what]) => what)).toEqual(['page', 'unknown page', 'svg']);
    const photo = responses.find(([w]) => w === 'photo')![1];
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
  });

  it("a fan's public pages go without COOP; sign-in, lists of one's own and input screens keep it", async () => {
    const unisolated = [
      '/apps/sagan/',
      '/apps/sagan/taggedscoreboards/t1',
      '/apps/sagan/viewscoreboard/g1',
      '/apps/sagan/teamsheets/s1',
      '/apps/sagan/teamsheets/s1/p1',
      '/apps/sagan/playcountshare/k1',
    ];
    for (const url of unisolated)
      expectLockedDown(await t.app.inject({ url }), url, { isolated: false });
    for (const url of [
      '/apps/sagan/login',
      '/apps/sagan/scoreboards',
      '/apps/sagan/teamsheets',
      '/apps/sagan/teamsheetedit/t1',
      '/apps/sagan/scoregame/g1',
      '/apps/sagan/newgame',
      '/apps/sagan/invite',
      '/apps/sagan/viewscoreboard/g1/extra',
    ])
      expectLockedDown(await t.app.inject({ url }), url);
    // The mini card, framed by other sites, goes without it too.
    const mini = await t.app.inject({ url: '/apps/sagan/viewscoreboardmini/g1' });
    expect(mini.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('an unhashed static file revalidates by its ETag alone: no Last-Modified, no Accept-Ranges', async () => {
    const url = '/apps/sagan/icon.svg';
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['last-modified']).toBeUndefined();
    expect(res.headers['accept-ranges']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const again = await t.app.inject({
      url,
      headers: { 'if-none-match': String(res.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('a hashed asset is immutable and carries no validator at all', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['etag']).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
    expect(res.headers['accept-ranges']).toBeUndefined();
  });

  it('only the mini card route may be framed by other sites, and only that is relaxed', async () => {
    for (const url of [
      '/apps/sagan/viewscoreboardmini/abc',
      '/apps/sagan/viewscoreboardmini/x?y=1',
    ]) {
      const mini = await t.app.inject({ url });
      const csp = directives(mini);
      expect(csp.get('frame-ancestors'), url).toEqual(['*']);
      expect(mini.headers['x-frame-options'], url).toBeUndefined();
      // Framable, but its scripts, plugins and base are as locked down as everywhere else.
      expect(csp.get('script-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/client']);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(mini.headers['x-content-type-options']).toBe('nosniff');
    }
    for (const url of [
      '/apps/sagan/viewscoreboard/abc',
      '/apps/sagan/viewscoreboardminix/abc',
      // Under the mini card's prefix but not its route: the whole app, menus and all.
      '/apps/sagan/viewscoreboardmini/x/y',
      '/apps/sagan/viewscoreboardmini/abc/teamsheets',
      '/apps/sagan/viewscoreboardmini/',
      '/apps/sagan/viewscoreboardmini/%2E%2E%2Fteamsheets',
      '/apps/sagan/teamsheets?next=/apps/sagan/viewscoreboardmini/',
      `${API}/config?/apps/sagan/viewscoreboardmini/`,
    ]) {
      const res = await t.app.inject({ url });
      // The API's JSON is no document: no policy and no frame header (expectLockedDown).
      if (url.startsWith(API)) {
        expect(res.headers['content-security-policy'], url).toBeUndefined();
        expect(res.headers['x-frame-options'], url).toBeUndefined();
        continue;
      }
      expect(directives(res).get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(res.headers['x-frame-options'], url).toBeDefined();
    }
  });

  it('the session cookie on plain http: HttpOnly, SameSite=Lax, host-only, no Secure', async () => {
    const res = await postLocalSignIn(t.app, { displayName: 'Plain http' });
    const [c] = res.cookies;
    expect(c?.name).toBe('sagan_session');
    expect(c?.httpOnly).toBe(true);
    expect(c?.sameSite).toBe('Lax');
    expect(c?.path).toBe('/');
    expect(c?.domain).toBeUndefined();
    expect(c?.secure).toBeFalsy(); // a Secure cookie would never come back over http
    expect(c?.maxAge).toBe(t.app.config.sessionDays * 86400);
    // 32 random bytes; the server keeps only its hash, so a database leak is no session leak.
    expect(c!.value).toMatch(/^[\w-]{43}$/);
    const stored = await t.db.query<{ id_hash: string }>('SELECT id_hash FROM sessions');
    expect(stored.some((s) => s.id_hash === c!.value)).toBe(false);
  });

  it('behind https: __Host- and Secure from sign-in through sign-out', async () => {
    const config = loadConfig({
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://scores.example.org',
      DATA_DIR: '/nonexistent',
    });
    expect(config.cookieSecure).toBe(true);
    const secureApp = await buildTestApp(t.db, {
      cookieSecure: config.cookieSecure,
      publicUrl: config.publicUrl,
    });
    try {
      const signIn = await postLocalSignIn(
        secureApp,
        { displayName: 'Behind https' },
        { origin: 'https://scores.example.org' },
      );
      const [c] = signIn.cookies;
      expect(c).toMatchObject({
        name: '__Host-sagan_session',
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
      });
      expect(c?.domain).toBeUndefined(); // __Host- forbids Domain
      const cookie = `${c!.name}=${c!.value}`;
      // The unprefixed name is not read when Secure: a cookie planted over http is ignored.
      const planted = await secureApp.inject({
        url: `${API}/auth/me`,
        headers: { cookie: `sagan_session=${c!.value}` },
      });
      expect(planted.statusCode).toBe(401);

      const out = await secureApp.inject({
        method: 'POST',
        url: `${API}/auth/logout`,
        headers: { 'x-sagan-request': '1', origin: 'https://scores.example.org', cookie },
      });
      expect(out.statusCode).toBe(200);
      // Browsers ignore a __Host- Set-Cookie without Secure and Path=/: the clearing one must
      // carry both, or the dead cookie would linger in the browser.
      const [cleared] = out.cookies;
      expect(cleared).toMatchObject({
        name: '__Host-sagan_session',
        value: '',
        secure: true,
        path: '/',
      });
      expect(cleared?.expires?.getTime() ?? 0).toBeLessThan(Date.now());
      const replay = await secureApp.inject({ url: `${API}/auth/me`, headers: { cookie } });
      expect(replay.statusCode).toBe(401);
    } finally {
      await secureApp.close();
    }
  });
});
