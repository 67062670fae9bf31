import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type CryptoKey } from 'jose';
import {
  API,
  buildTestApp,
  databaseKinds,
  postLocalSignIn,
  signInLocal,
  useTestApp,
} from './helpers.ts';

const CLIENT_ID = 'sagan-test.apps.googleusercontent.com';
const ISSUER = 'https://accounts.google.com';

/** Our own Google stand-in: a JWKS endpoint with keys this test generated. */
async function startJwksServer(jwks: { keys: JWK[] }) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/certs`, close: () => server.close() };
}

describe.each(databaseKinds())('identity on $name', (kind) => {
  let jwksServer: Awaited<ReturnType<typeof startJwksServer>>;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwksServer = await startJwksServer({ keys: [jwk] });
  });
  afterAll(() => jwksServer.close());
  const t = useTestApp(kind, () => ({
    config: {
      google: { clientId: CLIENT_ID, jwksUrl: jwksServer.url, issuers: [ISSUER] },
      localSignIn: false,
    },
  }));

  function token(
    overrides: { aud?: string; iss?: string; exp?: number; kid?: string; sub?: string } = {},
    key: CryptoKey = signingKey,
  ) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ name: 'Grace Coach', email: 'grace@example.com' })
      .setProtectedHeader({ alg: 'RS256', kid: overrides.kid ?? 'k1' })
      .setSubject(overrides.sub ?? '1234567890')
      .setIssuer(overrides.iss ?? ISSUER)
      .setAudience(overrides.aud ?? CLIENT_ID)
      .setIssuedAt(now - 10)
      .setExpirationTime(overrides.exp ?? now + 3600)
      .sign(key);
  }

  const google = (credential: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/google`,
      headers: { 'x-sagan-request': '1' },
      payload: { credential },
    });

  it('accepts a valid Google ID token, starts a session and writes lastLogin', async () => {
    const before = Date.now();
    const res = await google(await token());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ uid: '1234567890', displayName: 'Grace Coach' });
    const cookie = res.cookies.find((c) => c.name === 'sagan_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    const me = await t.app.inject({
      url: `${API}/auth/me`,
      headers: { cookie: `sagan_session=${cookie?.value}` },
    });
    expect(me.json()).toEqual({ uid: '1234567890', displayName: 'Grace Coach' });
    const [row] = await t.db.query<{ last_login: string }>(
      'SELECT last_login FROM users WHERE uid = $1',
      ['1234567890'],
    );
    // SPEC §3: ms as a string.
    expect(row?.last_login).toMatch(/^\d{13}$/);
    expect(Number(row?.last_login)).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ['wrong audience', { aud: 'someone-else.apps.googleusercontent.com' }],
    ['wrong issuer', { iss: 'https://evil.example.com' }],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 600 }],
    ['unknown key id', { kid: 'no-such-key' }],
  ])('refuses a token with %s', async (_label, overrides) => {
    const res = await google(await token(overrides));
    expect(res.statusCode).toBe(401);
    expect(res.cookies).toHaveLength(0);
  });

  it('refuses a token signed by a key that is not in the JWKS (bad signature)', async () => {
    const res = await google(await token({}, strangerKey));
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token whose payload was tampered with', async () => {
    const [h, , s] = (await token()).split('.');
    const forged = Buffer.from(
      JSON.stringify({ sub: 'admin', aud: CLIENT_ID, iss: ISSUER, exp: 9999999999, iat: 1 }),
    ).toString('base64url');
    const res = await google(`${h}.${forged}.${s}`);
    expect(res.statusCode).toBe(401);
  });

  it('accepts a Google ID token as a Bearer token (companion apps) without the CSRF header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout`,
      headers: { authorization: `Bearer ${await token({ sub: 'phone-user' })}` },
    });
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({
      url: `${API}/auth/me`,
      headers: { authorization: `Bearer ${await token({ sub: 'phone-user' })}` },
    });
    expect(me.json()).toMatchObject({ uid: 'phone-user' });
    const bad = await t.app.inject({
      url: `${API}/auth/me`,
      headers: { authorization: `Bearer ${await token({ sub: 'x' }, strangerKey)}` },
    });
    expect(bad.statusCode).toBe(401);
  });

  it('a Bearer token verified once is remembered only until it expires', async () => {
    const exp = Math.floor(Date.now() / 1000) + 1;
    const bearer = { authorization: `Bearer ${await token({ sub: 'short-lived', exp })}` };
    const me = () => t.app.inject({ url: `${API}/auth/me`, headers: bearer });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200); // the remembered verification
    // Past its expiry and the verifier's 5 s clock tolerance: refused, remembered or not. Only
    // the clock moves on (both the cache and the verifier read Date), so no test waits 7 s.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(exp * 1000 + 6000);
      expect((await me()).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('local sign-in is off when Google is configured', async () => {
    const res = await postLocalSignIn(t.app, { displayName: 'Mallory' });
    expect(res.statusCode).toBe(404);
  });
});

describe.each(databaseKinds())('sessions and CSRF on $name', (kind) => {
  const t = useTestApp(kind);

  it('logout revokes the session on the server, not just in the browser', async () => {
    const ann = await signInLocal(t.app, 'Ann');
    expect((await ann.request({ url: `${API}/auth/me` })).statusCode).toBe(200);
    const out = await ann.request({ method: 'POST', url: `${API}/auth/logout` });
    expect(out.statusCode).toBe(200);
    // The old cookie, replayed, is dead.
    expect((await ann.request({ url: `${API}/auth/me` })).statusCode).toBe(401);
    const rows = await t.db.query(
      'SELECT 1 FROM sessions s JOIN users u USING (uid) WHERE u.display_name = $1',
      ['Ann'],
    );
    expect(rows).toHaveLength(0);
  });

  it('signing in again rotates the session id and kills the previous one', async () => {
    const first = await signInLocal(t.app, 'Bea');
    const res = await postLocalSignIn(t.app, { displayName: 'Bea' }, { cookie: first.cookie });
    const second = res.cookies[0];
    expect(second?.value).toBeTruthy();
    expect(`${second?.name}=${second?.value}`).not.toBe(first.cookie);
    expect((await first.request({ url: `${API}/auth/me` })).statusCode).toBe(401);
  });

  it('the same display name signs in to the same user; lastLogin is updated each time', async () => {
    const a = await signInLocal(t.app, 'Cleo');
    const [before] = await t.db.query<{ last_login: string }>(
      'SELECT last_login FROM users WHERE uid = $1',
      [a.uid],
    );
    await new Promise((r) => setTimeout(r, 5));
    const b = await signInLocal(t.app, 'cleo');
    expect(b.uid).toBe(a.uid);
    const [after] = await t.db.query<{ last_login: string }>(
      'SELECT last_login FROM users WHERE uid = $1',
      [a.uid],
    );
    expect(Number(after?.last_login)).toBeGreaterThan(Number(before?.last_login));
  });

  it('refuses a state-changing request without the X-Sagan-Request header', async () => {
    const dan = await signInLocal(t.app, 'Dan');
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout`,
      headers: { cookie: dan.cookie },
    });
    expect(res.statusCode).toBe(403);
    // Refused means nothing happened: the session still works.
    expect((await dan.request({ url: `${API}/auth/me` })).statusCode).toBe(200);
  });

  it('refuses a foreign Origin, accepts our own', async () => {
    const eve = await signInLocal(t.app, 'Eve');
    const foreign = await eve.request({
      method: 'POST',
      url: `${API}/auth/logout`,
      headers: { origin: 'https://evil.example', host: 'localhost:80' },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await eve.request({ url: `${API}/auth/me` })).statusCode).toBe(200);
    const own = await eve.request({
      method: 'POST',
      url: `${API}/auth/logout`,
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('answers bad input with a 400 that says what is wrong', async () => {
    const res = await postLocalSignIn(t.app, { displayName: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/displayName/);
    const notJson = await postLocalSignIn(t.app, '{"displayName":', {
      'content-type': 'application/json',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('marks the cookie Secure with the __Host- prefix behind https', async () => {
    const secureApp = await buildTestApp(t.db, { cookieSecure: true });
    try {
      const res = await postLocalSignIn(secureApp, { displayName: 'Fay' });
      const c = res.cookies[0];
      expect(c?.name).toBe('__Host-sagan_session');
      expect(c?.secure).toBe(true);
      expect(c?.path).toBe('/');
    } finally {
      await secureApp.close();
    }
  });
});
