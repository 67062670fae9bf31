import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openPglite } from '../src/db/db.ts';
import { loggerOptions, prettyLine } from '../src/logging.ts';
import { databaseKinds, testConfig, type TestDatabase } from './helpers.ts';

/** What loadConfig refuses env for: it must throw a ConfigError, which lists the problems. */
function refusal(env: Record<string, string>): string[] {
  let error: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
}

describe('configuration', () => {
  it('has working defaults: loopback, port 3000, local sign-in on', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.localSignIn).toBe(true);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.cookieSecure).toBe(false);
  });

  it('lists every wrong setting at once', () => {
    const problems = refusal({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'not a url',
      RATE_LIMIT_FACTOR: '-1',
    });
    const text = problems.join('\n');
    expect(text).toMatch(/PORT/);
    expect(text).toMatch(/DATABASE_URL/);
    expect(text).toMatch(/PUBLIC_URL/);
    expect(text).toMatch(/RATE_LIMIT_FACTOR/);
    expect(problems).toHaveLength(4);
  });

  it('takes DATA_DIR as a folder and refuses a URL, which would become a folder named after it', () => {
    expect(loadConfig({ DATA_DIR: 'club-data' }).dataDir).toMatch(/club-data$/);
    expect(refusal({ DATA_DIR: 'memory://' }).join('\n')).toMatch(/DATA_DIR.*not a URL/);
  });

  it('refuses a public interface without Google sign-in (local sign-in would be open to all)', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/GOOGLE_CLIENT_ID/);
    const google = loadConfig({
      HOST: '0.0.0.0',
      ALLOWED_HOSTS: '192.168.1.20',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
    });
    expect(google.localSignIn).toBe(false);
    // Only an explicit setting turns local sign-in on there.
    const forced = loadConfig({
      HOST: '0.0.0.0',
      ALLOWED_HOSTS: '192.168.1.20',
      ALLOW_LOCAL_SIGNIN: 'true',
    });
    expect(forced.localSignIn).toBe(true);
    expect(forced.localSignInAnywhere).toBe(true);
  });

  it('turns local sign-in off on loopback once Google is configured', () => {
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com' }).localSignIn).toBe(
      false,
    );
  });

  it('refuses the simulator without the demo, whose games it plays', () => {
    expect(() => loadConfig({ SIMULATE: 'true' })).toThrow(/SIMULATE: needs DEMO=true/);
    expect(loadConfig({ SIMULATE: 'true', DEMO: 'true' }).simulate).toBe(true);
  });

  it('marks cookies Secure when the public URL is https', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://scores.example.org/' });
    expect(c.cookieSecure).toBe(true);
    expect(c.publicUrl).toBe('https://scores.example.org');
  });
});

describe('operator and outside links', () => {
  it('shows no outside link unless one is set, and names the operator by the support address', () => {
    const c = loadConfig({ SUPPORT_EMAIL: 'help@club.example' });
    expect(c.links).toEqual({
      about: null,
      apps: null,
      blog: null,
      social: null,
      promo: null,
      playerCounter: null,
    });
    expect(c.operator.contact).toBe('help@club.example');
    // No made-up name: the Privacy and Terms pages word it without one.
    expect(c.operator.name).toBeNull();
  });

  it('takes http(s) links, treats an empty one as unset, and refuses anything else', () => {
    const c = loadConfig({
      ABOUT_URL: 'https://club.example/about',
      BLOG_URL: '',
      OPERATOR_NAME: ' Riverside Juniors ',
      OPERATOR_EMAIL: 'privacy@club.example',
    });
    expect(c.links.about).toBe('https://club.example/about');
    expect(c.links.blog).toBeNull();
    expect(c.operator).toEqual({ name: 'Riverside Juniors', contact: 'privacy@club.example' });
    const problems = refusal({
      APPS_URL: 'javascript:alert(1)',
      SOCIAL_URL: 'not a url',
      OPERATOR_EMAIL: 'nobody',
    }).join('\n');
    expect(problems).toMatch(/APPS_URL/);
    expect(problems).toMatch(/SOCIAL_URL/);
    expect(problems).toMatch(/OPERATOR_EMAIL/);
  });
});

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal in development, JSON in production or through a pipe', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }, false).logFormat).toBe(
      'pretty',
    );
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'fancy' })).toThrow(/LOG_FORMAT/);
  });

  it('pretty: a compact line per entry, the error stack under it', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 0, 2, 3, 4, 5),
        pid: 1,
        hostname: 'h',
        msg: 'simulator: tick failed',
        gameKey: 'abc',
        err: { message: 'boom', stack: 'Error: boom\n    at x' },
      }),
      false,
    );
    expect(line).toBe(
      '03:04:05 WARN  simulator: tick failed  gameKey=abc\n    Error: boom\n        at x\n',
    );
  });

  it('JSON: one object a line, for log collectors', () => {
    expect(loggerOptions({ logLevel: 'info', logFormat: 'json' })).toEqual({ level: 'info' });
  });
});

describe('request lines', () => {
  const written: string[] = [];
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  let app: FastifyInstance;
  let database: TestDatabase;
  beforeAll(async () => {
    const out = Object.assign(new Writable(), {
      write: (chunk: string) => written.push(chunk) > 0,
    });
    database = await databaseKinds()[0]!.open();
    const config = testConfig({ logFormat: 'pretty' });
    process.on('warning', onWarning);
    app = await buildApp(config, { db: database.db, logger: loggerOptions(config, out) });
    await app.ready();
    // Node hands a warning to its listeners on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
  }, 120_000);
  afterAll(async () => {
    process.off('warning', onWarning);
    await app?.close();
    await database?.cleanup();
  });

  it("turns Fastify's own request lines off through its current option: a clean start", () => {
    const deprecations = warnings.filter((w) => w.name === 'FastifyDeprecation');
    expect(deprecations.map((w) => `${(w as { code?: string }).code}: ${w.message}`)).toEqual([]);
  });

  it('one line per request; a static file or health check that went well only at debug', async () => {
    await app.inject({ url: '/apps/sagan/api/health' });
    await app.inject({ url: '/apps/sagan/api/docs/static/swagger-ui.css' });
    await app.inject({ url: '/apps/sagan/api/tags' });
    await app.inject({ url: '/apps/sagan/api/games/nope' });
    const requests = written.filter((l) => / ms\n$/.test(l));
    expect(requests, requests.join('')).toHaveLength(2);
    expect(requests[0]).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}GET \/apps\/sagan\/api\/tags 200 \d+ ms\n$/,
    );
    expect(requests[1]).toMatch(/INFO {2}GET \/apps\/sagan\/api\/games\/nope 404 \d+ ms/);
    expect(written.join('')).not.toMatch(/^\{/m);
  });
});

describe('embedded database folder lock', () => {
  it('refuses a second process on the same data folder while the first lives', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-lock-'));
    // A live process other than us holds the lock (our parent is alive for sure).
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'sagan.lock'), String(process.ppid));
    await expect(openPglite(dir)).rejects.toThrow(/in use by another Sagan process/);
    // A stale lock of a dead process is taken over.
    fs.writeFileSync(path.join(dir, 'sagan.lock'), '999999');
    const db = await openPglite(dir);
    expect(fs.readFileSync(path.join(dir, 'sagan.lock'), 'utf8')).toBe(String(process.pid));
    await db.close();
    expect(fs.existsSync(path.join(dir, 'sagan.lock'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
