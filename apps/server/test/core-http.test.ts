import { describe, expect, it } from 'vitest';
import { databaseKinds, useTempDir, useTestApp } from './helpers.ts';
import { migrate } from '../src/db/migrate.ts';

describe.each(databaseKinds())('HTTP shell on $name', (kind) => {
  const webDist = useTempDir('sagan-web-', {
    'index.html': '<!doctype html><title>Sagan</title><div id="root"></div>',
    'assets/app-abc123.js': 'console.log(1)',
  });
  const t = useTestApp(kind, () => ({ config: { webDist: webDist() } }));

  it('redirects / to the base path', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/apps/sagan/');
  });

  it.each([
    '/apps/sagan/',
    '/apps/sagan/login',
    '/apps/sagan/scoreboards',
    // (a missing game's board or tag's list answers 404: rendered-pages.test.ts,
    // render-cache.test.ts)
    '/apps/sagan/teamsheetedit/team1/-1',
    '/apps/sagan/teamsheetgroupedit/team1',
    '/apps/sagan/teamsheetgroupedit/team1/group1',
    '/apps/sagan/playcount/g1',
  ])('serves the app for the client route %s', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
  });

  it('answers unknown app paths with the app and a 404 status, unknown API paths with JSON', async () => {
    const page = await t.app.inject({ url: '/apps/sagan/no/such/thing' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<div id="root">');
    const api = await t.app.inject({ url: '/apps/sagan/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not found' });
  });

  it('sends a browser that follows a link outside the base path to the app, programs get JSON', async () => {
    // A navigation (as Chromium sends it, and as older browsers say it with Accept).
    for (const headers of [
      { 'sec-fetch-mode': 'navigate' },
      { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    ]) {
      const privacy = await t.app.inject({ url: '/privacy', headers });
      expect(privacy.statusCode).toBe(302);
      expect(privacy.headers.location).toBe('/apps/sagan/privacy');
      const blog = await t.app.inject({ url: '/blog/?x=1', headers });
      expect(blog.headers.location).toBe('/apps/sagan/blog/');
      const unknown = await t.app.inject({ url: String(blog.headers.location), headers });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['content-type']).toMatch(/text\/html/);
      expect(unknown.body).toContain('<div id="root">');
      // The API stays JSON, whoever asks.
      const api = await t.app.inject({ url: '/apps/sagan/api/nope', headers });
      expect(api.json()).toEqual({ error: 'Not found' });
    }
    const terms = await t.app.inject({
      url: '/apps/sagan/termsOfService',
      headers: { 'sec-fetch-mode': 'navigate' },
    });
    expect(terms.statusCode).toBe(200);
    const program = await t.app.inject({ url: '/blog/', headers: { accept: 'application/json' } });
    expect(program.statusCode).toBe(404);
    expect(program.json()).toEqual({ error: 'Not found' });
    const post = await t.app.inject({
      method: 'POST',
      url: '/privacy',
      headers: { 'sec-fetch-mode': 'navigate' },
    });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: 'Not found' });
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/immutable/);
  });

  it('sends security headers; only the mini card may be framed', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/login' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/object-src 'none'/);
    expect(csp).toMatch(/base-uri 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const mini = await t.app.inject({ url: '/apps/sagan/viewscoreboardmini/abc' });
    expect(String(mini.headers['content-security-policy'])).toMatch(/frame-ancestors \*/);
    expect(mini.headers['x-frame-options']).toBeUndefined();
  });

  it('reports health with the database kind', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/api/health' });
    expect(res.json()).toMatchObject({ ok: true, database: kind.name });
  });

  it('publishes the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toContain('/apps/sagan/api/auth/local');
  });

  it('migrations are applied once; running them again changes nothing', async () => {
    expect(await migrate(t.db)).toEqual([]);
  });
});
