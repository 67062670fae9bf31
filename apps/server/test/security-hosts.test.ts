import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { isLoopbackHostHeader, parseTrustProxy } from '../src/lib/hosts.ts';
import {
  API,
  databaseKinds,
  postLocalSignIn,
  signInLocal,
  testConfig,
  type TestDatabase,
} from './helpers.ts';

/**
 * Proxies and hosts (DESIGN §9), attacked from outside: X-Forwarded-* from a client that is not
 * a configured proxy counts for nothing (neither its address for the rate limits nor its host
 * for the links we build), other Host names are refused (DNS rebinding), a public HOST must say
 * which names it serves, and local sign-in answers only the person at this machine.
 */
const SIGN_IN_MAX = 20;
const PUBLIC_HOST = 'scores.example.org';
const ATTACKER = '203.0.113.9';

function decodeQr(png: Buffer): string | undefined {
  const img = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data;
}

describe('TRUST_PROXY and the start check of a public HOST', () => {
  it('never trusts every client: "true" is refused with what to write instead', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*proxy's address/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'my-proxy' })).toThrow(/not an address or CIDR/);
  });

  it('refuses a public HOST that names neither PUBLIC_URL nor ALLOWED_HOSTS', () => {
    const google = { GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com' };
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'sagan.lan']) {
      let error: unknown;
      try {
        loadConfig({ ...google, HOST });
      } catch (err) {
        error = err;
      }
      expect(error, HOST).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/PUBLIC_URL/);
      expect((error as Error).message).toMatch(/ALLOWED_HOSTS/);
    }
    expect(loadConfig({ ...google, HOST: '0.0.0.0', ALLOWED_HOSTS: '192.168.1.20' }).host).toBe(
      '0.0.0.0',
    );
    expect(loadConfig({ ...google, HOST: '0.0.0.0', PUBLIC_URL: 'https://x.example' }).host).toBe(
      '0.0.0.0',
    );
    // Loopback in every spelling needs neither.
    for (const HOST of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      expect(loadConfig({ HOST }).host).toBe(HOST);
    }
  });

  it('the server process stops at start with that message', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          HOST: '0.0.0.0',
          PORT: '0',
          GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
        },
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/HOST 0\.0\.0\.0 is reachable from other machines/);
    expect(run.stderr).toMatch(/PUBLIC_URL/);
    expect(run.stderr).toMatch(/ALLOWED_HOSTS/);
  }, 60_000);

  it('knows an exact loopback Host header from a look-alike', () => {
    for (const h of ['localhost', 'localhost:3000', '127.0.0.1:80', '127.9.9.9', '[::1]:3000']) {
      expect(isLoopbackHostHeader(h), h).toBe(true);
    }
    for (const h of [
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '127.evil.example',
      '[::2]',
      'evil.example',
      '',
      'localhost:3000/x',
      undefined,
    ]) {
      expect(isLoopbackHostHeader(h), String(h)).toBe(false);
    }
  });
});

// Not useTestApp: each case builds an app with its own environment (HOST, TRUST_PROXY,
// ALLOWED_HOSTS, PUBLIC_URL) on one shared database, since those are start-time settings.
describe.each(databaseKinds())('proxies and hosts on $name', (kind) => {
  let database: TestDatabase;
  const apps: FastifyInstance[] = [];

  async function appWith(env: Record<string, string>, rateLimitFactor = 1000) {
    const app = await buildApp(testConfig({ rateLimitFactor }, env), {
      db: database.db,
      logger: false,
    });
    await app.ready();
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.cleanup();
  });

  const localSignIn = (app: FastifyInstance, displayName: string, opts: InjectOptions = {}) =>
    app.inject({
      method: 'POST',
      url: `${API}/auth/local`,
      ...opts,
      headers: { 'x-sagan-request': '1', ...(opts.headers ?? {}) },
      payload: { displayName },
    });

  /** 25 sign-ins from the attacker, each claiming another address; answers their statuses. */
  const rotatingSignIns = async (app: FastifyInstance, name: string, from = ATTACKER) => {
    const codes: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await localSignIn(app, `${name} ${i}`, {
        remoteAddress: from,
        headers: { host: PUBLIC_HOST, 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      codes.push(res.statusCode);
    }
    return codes;
  };

  it('rotating X-Forwarded-For no longer buys fresh sign-in attempts', async () => {
    // Local sign-in forced on, so every attempt the limit lets through succeeds.
    const app = await appWith({ ALLOW_LOCAL_SIGNIN: 'true', ALLOWED_HOSTS: PUBLIC_HOST }, 1);
    const codes = await rotatingSignIns(app, 'Rotating');
    const ok = codes.filter((c) => c === 200).length;
    const limited = codes.filter((c) => c === 429).length;
    console.log(`rotating X-Forwarded-For, no TRUST_PROXY: ${ok} ok, ${limited} × 429 of 25`);
    expect(ok).toBe(SIGN_IN_MAX);
    expect(limited).toBe(25 - SIGN_IN_MAX);

    // With a proxy configured, a client connecting past it still cannot pick its address.
    const proxied = await appWith(
      { ALLOW_LOCAL_SIGNIN: 'true', ALLOWED_HOSTS: PUBLIC_HOST, TRUST_PROXY: '10.0.0.2' },
      1,
    );
    // Another attacker: the two apps share their counts in the database, as nodes do.
    const direct = await rotatingSignIns(proxied, 'Direct', '203.0.113.98');
    expect(direct.filter((c) => c === 200)).toHaveLength(SIGN_IN_MAX);
    // Through the proxy, each real client is counted on its own.
    const viaProxy = await localSignIn(proxied, 'Behind the proxy', {
      remoteAddress: '10.0.0.2',
      headers: { host: PUBLIC_HOST, 'x-forwarded-for': '198.51.100.200' },
    });
    expect(viaProxy.statusCode).toBe(200);
  });

  it('a forged X-Forwarded-Host never reaches a QR code or a published link', async () => {
    const evil = 'evil.example';
    const qrOf = async (app: FastifyInstance, headers: Record<string, string>) => {
      const owner = await signInLocal(app, `QR owner ${Math.random()}`);
      const team = await owner.request({ method: 'POST', url: `${API}/teams` });
      const { teamKey } = team.json<{ teamKey: string }>();
      const pub = await owner.request({
        method: 'POST',
        url: `${API}/teams/${teamKey}/publish`,
        headers,
      });
      const { publishedAsKey, url } = pub.json<{ publishedAsKey: string; url: string }>();
      const qr = await app.inject({
        method: 'GET',
        url: `${API}/rosters/${publishedAsKey}/qr.png`,
        headers,
      });
      return { publishStatus: pub.statusCode, url, qr };
    };

    // No proxy configured: the header is ignored, links use the Host that reached us.
    const plain = await appWith({});
    const forged = { 'x-forwarded-host': evil, 'x-forwarded-proto': 'https' };
    const a = await qrOf(plain, forged);
    expect(a.url).toMatch(/^http:\/\/localhost:80\//);
    expect(a.qr.statusCode).toBe(200);
    const decodedA = decodeQr(a.qr.rawPayload);
    expect(decodedA).toBe(a.url);
    expect(decodedA).not.toContain(evil);

    // A configured proxy: its X-Forwarded-Host counts only if it is one of ours.
    const proxied = await appWith({ TRUST_PROXY: '127.0.0.1', ALLOWED_HOSTS: PUBLIC_HOST });
    const refused = await proxied.inject({
      method: 'GET',
      url: `${API}/games/recent`,
      headers: { 'x-forwarded-host': evil },
    });
    expect(refused.statusCode).toBe(421);
    const b = await qrOf(proxied, {
      'x-forwarded-host': PUBLIC_HOST,
      'x-forwarded-proto': 'https',
    });
    expect(b.url).toMatch(new RegExp(`^https://${PUBLIC_HOST}/`));
    expect(decodeQr(b.qr.rawPayload)).toBe(b.url);
  });

  it('other Host names are answered 421 (DNS rebinding), a broken one 400, health any', async () => {
    const app = await appWith({ ALLOWED_HOSTS: `${PUBLIC_HOST},sagan.lan:8080` });
    const get = (host: string, remoteAddress = '127.0.0.1', url = `${API}/games/recent`) =>
      app.inject({ method: 'GET', url, remoteAddress, headers: { host } });
    // A rebinding page's requests carry its own name even though they reach 127.0.0.1.
    expect((await get('rebind.attacker.example:3000')).statusCode).toBe(421);
    expect((await get('rebind.attacker.example:3000')).json()).toEqual({
      error: expect.stringMatching(/ALLOWED_HOSTS/),
    });
    expect((await get('localhost:3000')).statusCode).toBe(200);
    expect((await get('[::1]:3000')).statusCode).toBe(200);
    expect((await get(PUBLIC_HOST, ATTACKER)).statusCode).toBe(200);
    expect((await get(`${PUBLIC_HOST}:443`, ATTACKER)).statusCode).toBe(200);
    expect((await get('sagan.lan:8080', ATTACKER)).statusCode).toBe(200);
    expect((await get('sagan.lan:9999', ATTACKER)).statusCode).toBe(421);
    // An entry without a port: the web's default ports and the server's own (PORT 3000), not
    // any port a client names (links and QR codes would be built on it).
    expect((await get(`${PUBLIC_HOST}:80`, ATTACKER)).statusCode).toBe(200);
    expect((await get(`${PUBLIC_HOST}:3000`, ATTACKER)).statusCode).toBe(200);
    expect((await get(`${PUBLIC_HOST}:8081`, ATTACKER)).statusCode).toBe(421);
    expect((await get(`${PUBLIC_HOST}:1`, ATTACKER)).statusCode).toBe(421);
    // A port no connection can have is no host at all.
    for (const host of ['127.0.0.1:99999', 'localhost:0', `${PUBLIC_HOST}:65536`]) {
      expect((await get(host)).statusCode, host).toBe(400);
    }
    // A remote client does not get links built on a loopback name.
    expect((await get('localhost:3000', ATTACKER)).statusCode).toBe(421);
    // Refused before anything else: even a mutation never reaches its route.
    const post = await postLocalSignIn(
      app,
      { displayName: 'Rebound' },
      { host: 'rebind.attacker.example' },
    );
    expect(post.statusCode).toBe(421);
    expect(post.cookies).toHaveLength(0);
    // The load balancer's health check may use any name.
    expect((await get('10.1.2.3:3000', ATTACKER, `${API}/health`)).statusCode).toBe(200);

    // Over a real socket: no Host at all, and a malformed one.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const raw = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => s.write(head));
        let out = '';
        s.on('data', (d) => (out += d.toString()));
        s.on('end', () => resolve(out));
        s.on('error', reject);
      });
    expect(await raw(`GET ${API}/games/recent HTTP/1.0\r\nConnection: close\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 400/,
    );
    expect(
      await raw(`GET ${API}/games/recent HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 400/);
  });

  it('local sign-in: only a loopback client on an exact loopback Host', async () => {
    // HOST is 127.0.0.1 and Google is not configured: the default way to try the app.
    const app = await appWith({ ALLOWED_HOSTS: PUBLIC_HOST });
    const offered = async (opts: InjectOptions) =>
      (await app.inject({ method: 'GET', url: `${API}/config`, ...opts })).json<{
        localSignIn: boolean;
      }>().localSignIn;

    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000']) {
      expect((await localSignIn(app, 'At the machine', { headers: { host } })).statusCode).toBe(
        200,
      );
    }
    expect(await offered({})).toBe(true);

    const refusedCases: [string, InjectOptions][] = [
      ['a remote client', { remoteAddress: ATTACKER, headers: { host: PUBLIC_HOST } }],
      // A proxy on this machine relaying someone, with no TRUST_PROXY: its headers give it away.
      ['forwarded, no TRUST_PROXY', { headers: { 'x-forwarded-for': '198.51.100.4' } }],
      ['forwarded (RFC 7239)', { headers: { forwarded: 'for=198.51.100.4' } }],
      ['a loopback client on a public name', { headers: { host: PUBLIC_HOST } }],
    ];
    for (const [what, opts] of refusedCases) {
      const res = await localSignIn(app, `Refused ${what}`, opts);
      expect(res.statusCode, what).toBe(404);
      expect(res.cookies, what).toHaveLength(0);
      expect(await offered(opts), what).toBe(false);
    }

    // Behind a configured proxy the client it names decides.
    const proxied = await appWith({ TRUST_PROXY: 'loopback', ALLOWED_HOSTS: PUBLIC_HOST });
    const remote = await localSignIn(proxied, 'Via proxy, remote', {
      headers: { host: PUBLIC_HOST, 'x-forwarded-for': '198.51.100.4' },
    });
    expect(remote.statusCode).toBe(404);
    const viaPublicName = await localSignIn(proxied, 'Via proxy, public name', {
      headers: { 'x-forwarded-host': PUBLIC_HOST },
    });
    expect(viaPublicName.statusCode).toBe(404);
    const local = await localSignIn(proxied, 'Via proxy, this machine', {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(local.statusCode).toBe(200);

    // ALLOW_LOCAL_SIGNIN is the explicit opt-in for everyone.
    const forced = await appWith({ ALLOW_LOCAL_SIGNIN: 'true', ALLOWED_HOSTS: PUBLIC_HOST });
    const anywhere = await localSignIn(forced, 'From anywhere', {
      remoteAddress: ATTACKER,
      headers: { host: PUBLIC_HOST },
    });
    expect(anywhere.statusCode).toBe(200);
  });
});
