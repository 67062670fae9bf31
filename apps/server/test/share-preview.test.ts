import { describe, expect, it } from 'vitest';
import { escapeHtml, injectPreview } from '../src/share-preview.ts';
import { API, databaseKinds, useTempDir, useTestApp } from './helpers.ts';

// A link pasted in a chat shows a card, because the server writes OG/Twitter tags.
const INDEX =
  '<!doctype html><html><head><title>Sagan</title></head><body><div id="root"></div></body></html>';

function metaOf(html: string, key: string): string | undefined {
  const re = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`);
  return re.exec(html)?.[1];
}

describe('injectPreview', () => {
  it('escapes everything a scorekeeper or coach typed', () => {
    const html = injectPreview(
      INDEX,
      { title: '<script>alert(1)</script>', description: '"quoted" & \'single\'', noindex: true },
      'https://x.example/apps/sagan/teamsheets/k',
      'https://x.example',
    );
    expect(html).not.toContain('<script>alert');
    expect(metaOf(html, 'og:title')).toBe(escapeHtml('<script>alert(1)</script>'));
    expect(metaOf(html, 'og:description')).toBe('&#34;quoted&#34; &#38; &#39;single&#39;');
    expect(html.match(/<title>/g)).toHaveLength(1);
  });
});

describe.each(databaseKinds())('share previews on $name', (kind) => {
  const webDist = useTempDir('sagan-web-', { 'index.html': INDEX });
  const t = useTestApp(kind, () => ({
    users: ['Owner'],
    config: { webDist: webDist(), publicUrl: 'https://scores.example' },
  }));

  it('a shared scoreboard link carries the teams and the score', async () => {
    const { gameKey } = (
      await t.users.Owner.request({ method: 'POST', url: `${API}/games`, payload: {} })
    ).json();
    await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: {
        homeTeamName: 'Lions & Co',
        awayTeamName: 'Tigers',
        homeScore: 3,
        awayScore: 1,
        gameName: 'Cup final',
        gamePeriod: 'Q2',
        sportID: 2,
      },
    });
    const res = await t.app.inject({ method: 'GET', url: `/apps/sagan/viewscoreboard/${gameKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(metaOf(res.body, 'og:title')).toBe('Lions &#38; Co 3 – 1 Tigers');
    expect(metaOf(res.body, 'og:description')).toBe('Cup final · Q2 · Basketball');
    expect(metaOf(res.body, 'og:image')).toBe(
      'https://scores.example/apps/sagan/icons/icon-512.png',
    );
    expect(metaOf(res.body, 'og:url')).toBe(
      `https://scores.example/apps/sagan/viewscoreboard/${gameKey}`,
    );
    expect(metaOf(res.body, 'twitter:card')).toBe('summary');
    expect(metaOf(res.body, 'twitter:title')).toBe('Lions &#38; Co 3 – 1 Tigers');
    expect(res.body).toContain('<title>Lions &#38; Co 3 – 1 Tigers · Sagan</title>');
  });

  it('a shared team sheet link carries the team name, is noindex, and names no player', async () => {
    const { teamKey } = (
      await t.users.Owner.request({ method: 'POST', url: `${API}/teams` })
    ).json();
    await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: 'Lions U10', teamNotes: 'Saturday league' },
    });
    const player = await t.users.Owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/-1`,
      payload: { jersey: '7', playerName: 'Ada Lovelace', playerNotes: '' },
    });
    expect(player.statusCode).toBeLessThan(300);
    const { publishedAsKey } = (
      await t.users.Owner.request({
        method: 'POST',
        url: `${API}/teams/${teamKey}/publish`,
      })
    ).json();
    const sheet = await t.app.inject({
      method: 'GET',
      url: `/apps/sagan/teamsheets/${publishedAsKey}`,
    });
    expect(sheet.statusCode).toBe(200);
    expect(metaOf(sheet.body, 'og:title')).toBe('Lions U10');
    expect(metaOf(sheet.body, 'og:description')).toBe('Saturday league');
    expect(metaOf(sheet.body, 'robots')).toBe('noindex');
    expect(sheet.headers['x-robots-tag']).toBe('noindex');
    const playerKey = (
      await t.app.inject({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })
    ).json().roster[0].key;
    const page = await t.app.inject({
      method: 'GET',
      url: `/apps/sagan/teamsheets/${publishedAsKey}/${playerKey}`,
    });
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(metaOf(page.body, 'og:title')).toBe('Lions U10');
    expect(page.body).not.toContain('Lovelace');
  });

  it('unknown keys (not found) and other pages get the plain app', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/apps/sagan/viewscoreboard/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe(INDEX);
    const bad = await t.app.inject({ method: 'GET', url: '/apps/sagan/viewscoreboard/%3Cx%3E' });
    expect(bad.body).not.toContain('og:title');
    const dash = await t.app.inject({ method: 'GET', url: '/apps/sagan/scoreboards' });
    expect(dash.body).toBe(INDEX);
    expect(dash.headers['x-robots-tag']).toBeUndefined();
  });
});
