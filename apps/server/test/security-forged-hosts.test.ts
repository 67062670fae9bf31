import { describe, expect, it } from 'vitest';
import { API, databaseKinds, useTestApp } from './helpers.ts';
import { useSsrBundle } from './ssr-bundle.ts';

/**
 * Forged Host, X-Forwarded-Host and X-Forwarded-Proto against what the server builds from them
 * (docs/security.md "Probes"): links, the data export, and the rendered pages it keeps. The
 * refusals themselves (421, 400) are in security-hosts.test.ts.
 */
const dist = useSsrBundle({
  'index.html':
    '<!doctype html><html><head><title>Sagan</title></head><body><div id="root"></div></body></html>',
});

/** The server-rendered markup of a page, without the per-request head (its preview card). */
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root"'));

describe.each(databaseKinds())('forged hosts and schemes on $name', (kind) => {
  // A proxy on this machine is trusted, so its X-Forwarded-* headers count: the case where a
  // forged value could reach a link.
  const t = useTestApp(kind, () => ({
    users: ['Coach'],
    config: { webDist: dist(), trustProxy: ['127.0.0.1'] },
  }));

  it("the data export's site is http or https, whatever scheme a proxy passes on", async () => {
    const { Coach } = t.users;
    for (const proto of ['javascript', 'data', 'https, javascript']) {
      const res = await Coach.request({
        method: 'GET',
        url: `${API}/me/data`,
        headers: { 'x-forwarded-proto': proto },
      });
      expect(res.statusCode, proto).toBe(200);
      expect(res.json<{ site: string }>().site, proto).toBe('http://localhost:80');
    }
    const https = await Coach.request({
      method: 'GET',
      url: `${API}/me/data`,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.json<{ site: string }>().site).toBe('https://localhost:80');
  });

  it('a page rendered for one host name is never served under another', async () => {
    const { Coach } = t.users;
    const { teamKey } = (await Coach.request({ method: 'POST', url: `${API}/teams` })).json<{
      teamKey: string;
    }>();
    await Coach.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: 'Host Probes', teamNotes: '' },
    });
    const { publishedAsKey } = (
      await Coach.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` })
    ).json<{ publishedAsKey: string }>();
    const page = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/apps/sagan/teamsheets/${publishedAsKey}`, headers });

    // A client on this machine may name any loopback port; its render shows that name.
    const odd = await page({ host: 'localhost:6666' });
    expect(odd.statusCode).toBe(200);
    expect(rootOf(odd.body)).toContain(`http://localhost:6666/apps/sagan/teamsheets/`);
    // Another client's page is its own render, not the one kept for that name.
    const next = await page({ host: 'localhost:3000' });
    expect(next.statusCode).toBe(200);
    expect(next.body).not.toContain('6666');
    expect(rootOf(next.body)).toContain(`http://localhost:3000/apps/sagan/teamsheets/`);
    // A forged X-Forwarded-Host from the proxy never reaches the page nor the cache.
    const forged = await page({ 'x-forwarded-host': 'evil.example' });
    expect(forged.statusCode).toBe(421);
    const after = await page({ host: 'localhost:3000' });
    expect(after.body).not.toContain('evil.example');
  });
});
