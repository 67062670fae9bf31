import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { API, databaseKinds, newTeamOf, useTestApp } from './helpers.ts';
import { useSsrBundle } from './ssr-bundle.ts';

// The public pages the server renders with their data (rendered-pages.ts), and the status each
// answers: 404 with "Not found" in the HTML when the game, team sheet, player or shared link is
// not there. The real SSR bundle (vite.ssr.config.ts) and the real database.

const INDEX =
  '<!doctype html><html><head><title>Sagan</title></head>' +
  '<body><div id="root"></div><script type="module" src="/apps/sagan/assets/index.js"></script></body></html>';

const dist = useSsrBundle({ 'index.html': INDEX });

const rootOf = (html: string) =>
  /<div id="root"[^>]*>([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

function initialTopics(html: string): string[] | null {
  const m = /<script type="application\/json" id="sagan-initial">([^<]*)<\/script>/.exec(html);
  return m?.[1] ? (JSON.parse(m[1]) as { topic: string }[]).map((s) => s.topic) : null;
}

describe.each(databaseKinds())('rendered public pages and their status on $name', (kind) => {
  const t = useTestApp(kind, () => ({ users: ['Coach'], config: { webDist: dist() } }));
  let publishedAsKey = '';
  let playerKey = '';
  let shareKey = '';

  beforeAll(async () => {
    const coach = t.users.Coach;
    const teamKey = await newTeamOf(coach);
    const named = await coach.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: 'Rendered Lions', teamNotes: '' },
    });
    expect(named.statusCode).toBe(200);
    const bulk = await coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/players/bulk`,
      payload: { text: '7 Ada Lovelace\n9 Grace Hopper' },
    });
    expect(bulk.statusCode).toBeLessThan(300);
    const published = await coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(published.statusCode).toBeLessThan(300);
    publishedAsKey = published.json<{ publishedAsKey: string }>().publishedAsKey;
    const roster = (await t.app.inject({ url: `${API}/rosters/${publishedAsKey}` })).json<{
      roster: { key: string; playerName: string }[];
    }>().roster;
    playerKey = roster.find((p) => p.playerName === 'Ada Lovelace')!.key;
    const photo = await coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${playerKey}/photo`,
      headers: { 'content-type': 'image/jpeg' },
      payload: await sharp({
        create: { width: 30, height: 40, channels: 3, background: '#36c' },
      })
        .jpeg()
        .toBuffer(),
    });
    expect(photo.statusCode).toBe(200);
    const count = await coach.request({
      method: 'POST',
      url: `${API}/playcounts`,
      payload: { teamKey, gameName: 'Lions at Bears', gameDate: '2026-09-05' },
    });
    expect(count.statusCode).toBe(201);
    const { gameKey } = count.json<{ gameKey: string }>();
    const share = await coach.request({ method: 'PUT', url: `${API}/playcounts/${gameKey}/share` });
    expect(share.statusCode).toBeLessThan(300);
    shareKey = share.json<{ shareKey: string }>().shareKey;
  });

  it('a published team sheet is rendered with its players, and carries its state', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/teamsheets/${publishedAsKey}` });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain('Rendered Lions');
    expect(root).toContain('Grace Hopper');
    expect(initialTopics(res.body)).toEqual([`roster:${publishedAsKey}`]);
    // Its share link names the origin the page was asked for, as the browser's render does.
    expect(root).toContain(`http://localhost:80/apps/sagan/teamsheets/${publishedAsKey}`);
  });

  it("a player's page is rendered with the player", async () => {
    const res = await t.app.inject({
      url: `/apps/sagan/teamsheets/${publishedAsKey}/${playerKey}`,
    });
    expect(res.statusCode).toBe(200);
    expect(rootOf(res.body)).toContain('Ada Lovelace');
    expect(rootOf(res.body)).not.toContain('Grace Hopper');
    // The photo is the page's largest paint: asked for at once and first, not lazily.
    const photo = /<img[^>]*class="photo"[^>]*>/.exec(rootOf(res.body))?.[0] ?? '';
    expect(photo).toMatch(/fetchpriority="high"/i);
    expect(photo).not.toMatch(/loading="lazy"/);
    // At a width sized for the screen: the photo route's renditions, with how wide it is shown.
    const src = /src="([^"]+)"/.exec(photo)?.[1] ?? '';
    expect(src).toMatch(new RegExp(`/rosters/${publishedAsKey}/players/${playerKey}/photo\\?v=`));
    const srcset = /srcset="([^"]+)"/.exec(photo)?.[1]?.replace(/&amp;/g, '&');
    expect(srcset).toBe(
      `${src}&w=160 160w, ${src}&w=320 320w, ${src}&w=640 640w, ${src}&w=1280 1280w`,
    );
    expect(photo).toMatch(/sizes="\(max-width: 352px\) calc\(100vw - 32px\), 320px"/);
  });

  it('a shared play count link is rendered with its game', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/playcountshare/${shareKey}` });
    expect(res.statusCode).toBe(200);
    expect(rootOf(res.body)).toContain('Lions at Bears');
    expect(initialTopics(res.body)).toEqual([`playcountshare:${shareKey}`]);
  });

  it('a missing game, mini card, team sheet, player or shared link answers 404 and says so', async () => {
    for (const [url, says] of [
      ['/apps/sagan/viewscoreboard/no-such-game', 'We could not find this scoreboard.'],
      ['/apps/sagan/viewscoreboardmini/no-such-game', 'We could not find this scoreboard.'],
      ['/apps/sagan/teamsheets/no-such-sheet', 'We could not find this team sheet.'],
      [`/apps/sagan/teamsheets/${publishedAsKey}/no-such-player`, 'We could not find this player.'],
      ['/apps/sagan/teamsheets/no-such-sheet/no-such-player', 'We could not find this team sheet.'],
      ['/apps/sagan/playcountshare/no-such-link', 'We could not find this shared play count.'],
    ]) {
      const res = await t.app.inject({ url: url! });
      expect(res.statusCode, url).toBe(404);
      expect(String(res.headers['content-type']), url).toMatch(/^text\/html/);
      expect(rootOf(res.body), url).toContain(says!);
    }
    // The full board's not-found page has the heading too.
    const board = await t.app.inject({ url: '/apps/sagan/viewscoreboard/no-such-game' });
    expect(rootOf(board.body)).toContain('<h1>Not found</h1>');
  });

  it('a key that cannot be one answers 404; the lists of things stay 200', async () => {
    for (const url of [
      '/apps/sagan/viewscoreboard/bad.key',
      '/apps/sagan/teamsheets/%3Cx%3E',
      '/apps/sagan/playcountshare/a%2Fb',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('<div id="root">');
    }
    for (const url of ['/apps/sagan/scoreboards', '/apps/sagan/teamsheets', '/apps/sagan/']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }
  });

  it('a sheet answers 404 once unpublished', async () => {
    const coach = t.users.Coach;
    const teamKey = await newTeamOf(coach);
    const { publishedAsKey: key } = (
      await coach.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` })
    ).json<{ publishedAsKey: string }>();
    expect((await t.app.inject({ url: `/apps/sagan/teamsheets/${key}` })).statusCode).toBe(200);
    const unpublished = await coach.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(unpublished.statusCode).toBeLessThan(300);
    expect((await t.app.inject({ url: `/apps/sagan/teamsheets/${key}` })).statusCode).toBe(404);
  });
});
