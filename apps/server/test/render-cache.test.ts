import { beforeAll, describe, expect, it } from 'vitest';
import { localUid } from '../src/auth/local-uid.ts';
import { API, databaseKinds, testConfig, useTestApp } from './helpers.ts';
import { useSsrBundle } from './ssr-bundle.ts';

// The lists rendered with their data (the dashboard, a tag's games), and the render cache every
// rendered page goes through: a page is rendered once per change of a topic it shows, a change
// (a hidden game, a stopped clock) shows in the next load at once, and a running clock no
// longer makes a page be rendered per request. The real SSR bundle and the real database; the
// bundle is wrapped only to count its renders.

const INDEX =
  '<!doctype html><html><head><title>Sagan</title></head>' +
  '<body><div id="root"></div><script type="module" src="/apps/sagan/assets/index.js"></script></body></html>';
const ADMIN = 'Operator Olu';
const APPS_URL = 'https://club.example/apps';
const RENDERS = '__saganRenderCacheTestRenders';

/** The routes rendered so far, in order, as the wrapper below records them. */
const renders = (): string[] =>
  ((globalThis as Record<string, unknown>)[RENDERS] ??= []) as string[];
const rendersOf = (url: string) => renders().filter((u) => u === url).length;

// The real bundle is built into .ssr/real; the server loads the counting wrapper beside it.
const dist = useSsrBundle(
  {
    'index.html': INDEX,
    '.ssr/entry-server.js': `import { renderScoreboard as real } from './real/entry-server.js';
export function renderScoreboard(url, ...rest) {
  (globalThis.${RENDERS} ??= []).push(url);
  return real(url, ...rest);
}`,
  },
  '.ssr/real',
);

const rootOf = (html: string) =>
  /<div id="root"[^>]*>([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

function initialStates(html: string): { topic: string; seq: number; data: unknown }[] {
  const m = /<script type="application\/json" id="sagan-initial">([^<]*)<\/script>/.exec(html);
  return m?.[1] ? JSON.parse(m[1]) : [];
}

describe.each(databaseKinds())('rendered lists and the render cache on $name', (kind) => {
  const t = useTestApp(kind, () => ({
    users: ['Keeper', ADMIN],
    config: {
      webDist: dist(),
      adminUids: [localUid(ADMIN)],
      links: { ...testConfig().links, apps: APPS_URL },
    },
  }));
  const tagName = `cachetag${kind.name.replace(/\W/g, '')}`;
  let gameKey = '';
  let tagKey = '';

  const call = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
    t.users.Keeper.request({ method, url: `${API}${url}`, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    const created = await call('POST', '/games', {
      gameName: 'Cached Cup',
      homeTeamName: 'Rendered Rovers',
      awayTeamName: 'Listed Lions',
    });
    expect(created.statusCode).toBe(200);
    gameKey = created.json<{ gameKey: string }>().gameKey;
    const tagged = await call('PUT', `/games/${gameKey}/tags`, { tags: [tagName] });
    expect(tagged.statusCode).toBe(200);
    tagKey = tagged.json<{ tags: { key: string }[] }>().tags[0]!.key;
    // A game scheduled ahead is on the dashboard too, under Upcoming.
    const scheduled = await call('POST', '/games', {
      gameName: 'Derby Tomorrow',
      startsAt: Date.now() + 86_400_000,
    });
    expect(scheduled.statusCode).toBe(200);
    // The lists' numbers come after the write (decisions/0015): every one given out from here.
    await t.app.hub.coalescer.settled();
  });

  it('the dashboard is rendered with its current games and tag lists, and their states', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/' });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain('aria-label="Current Games"');
    expect(root).toContain('Cached Cup');
    expect(root).toContain('Rendered Rovers');
    expect(root).toContain('aria-label="Popular Tags"');
    expect(root).toContain(`#${tagName}`);
    // Upcoming is in the first paint, not drawn in after the app takes over.
    expect(root).toContain('aria-label="Upcoming"');
    expect(root).toContain('Derby Tomorrow');
    // Nothing is left loading in the rendered page.
    expect(root).not.toContain('class="loading');
    // The operator's Apps card is there already, as the app's first render has it: the site's
    // config comes with the page.
    expect(root).toContain(`href="${APPS_URL}"`);
    expect(root).toContain('Or score a game here in the browser');
    const config = /<script type="application\/json" id="sagan-config">([^<]*)<\/script>/.exec(
      res.body,
    )?.[1];
    expect(JSON.parse(config!)).toMatchObject({ links: { apps: APPS_URL } });
    const states = initialStates(res.body);
    expect(states.map((s) => s.topic)).toEqual(['games:recent', 'upcoming', 'tags']);
    // The numbers the client resumes from label the states it was given.
    for (const s of states)
      expect(s).toEqual({ topic: s.topic, ...(await t.app.hub.current(s.topic)) });
  });

  it("a tag's list is rendered with its games; an unknown tag answers 404", async () => {
    const res = await t.app.inject({ url: `/apps/sagan/taggedscoreboards/${tagKey}` });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain(`Scoreboards Tagged #${tagName}`);
    expect(root).toContain('Cached Cup');
    expect(initialStates(res.body).map((s) => s.topic)).toEqual([`tag:${tagKey}`]);
    const missing = await t.app.inject({ url: '/apps/sagan/taggedscoreboards/no-such-tag' });
    expect(missing.statusCode).toBe(404);
    expect(rootOf(missing.body)).toContain('Not found');
  });

  it('the dashboard is rendered once per change; a hidden game leaves it at once', async () => {
    const url = '/apps/sagan/';
    const first = await t.app.inject({ url });
    const before = rendersOf(url);
    const again = await t.app.inject({ url });
    expect(rendersOf(url)).toBe(before);
    expect(rootOf(again.body)).toBe(rootOf(first.body));

    const score = await call('PATCH', `/games/${gameKey}`, { homeScore: 7 });
    expect(score.statusCode).toBe(200);
    const scored = await t.app.inject({ url });
    expect(rendersOf(url)).toBe(before + 1);
    expect(rootOf(scored.body)).toMatch(/Rendered Rovers<\/span><span class="summary-score">7</);

    const hide = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/${gameKey}/hide`,
    });
    expect(hide.statusCode).toBe(200);
    const hidden = await t.app.inject({ url });
    expect(rendersOf(url)).toBe(before + 2);
    expect(rootOf(hidden.body)).not.toContain('Cached Cup');
    // The tag's list loses it too.
    const tag = await t.app.inject({ url: `/apps/sagan/taggedscoreboards/${tagKey}` });
    expect(rootOf(tag.body)).not.toContain('Cached Cup');

    const unhide = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/${gameKey}/unhide`,
    });
    expect(unhide.statusCode).toBe(200);
    const back = await t.app.inject({ url });
    expect(rootOf(back.body)).toContain('Cached Cup');
    // The lists are what they were before the hide: that render is still cached.
    expect(rootOf(back.body)).toBe(rootOf(scored.body));
    expect(rendersOf(url)).toBe(before + 2);
  });

  it('a board with a running clock is served from the cache, its time left to after paint', async () => {
    const created = await call('POST', '/games', { sportID: 2, gameName: 'Running Cup' });
    const key = created.json<{ gameKey: string }>().gameKey;
    const url = `/apps/sagan/viewscoreboard/${key}`;
    const control = (payload: object) => call('POST', `/games/${key}/clock/control`, payload);
    expect((await control({ action: 'set', seconds: 600, direction: 'down' })).statusCode).toBe(
      200,
    );
    expect((await control({ action: 'start' })).statusCode).toBe(200);

    const first = await t.app.inject({ url });
    const before = rendersOf(url);
    expect(before).toBeGreaterThan(0);
    const askedAt = Date.now();
    const second = await t.app.inject({ url });
    expect(rendersOf(url)).toBe(before);
    // The slot holds no time that the cache would freeze: after-paint.js fills it in.
    expect(rootOf(second.body)).toMatch(/class="board-clock"[^>]*>--:--</);
    expect(rootOf(second.body)).toBe(rootOf(first.body));
    // The states it is filled in from are each request's own, with the server's time then.
    const clockOf = (html: string) =>
      initialStates(html)[1]!.data as { running: boolean; startedAt: number; serverTime: number };
    const [a, b] = [clockOf(first.body), clockOf(second.body)];
    expect(a.running && b.running).toBe(true);
    expect(b.startedAt).toBe(a.startedAt);
    expect(b.serverTime).toBeGreaterThanOrEqual(askedAt);

    // Stopped, the clock shows its time in the markup, rendered once more.
    expect((await control({ action: 'stop' })).statusCode).toBe(200);
    const stopped = await t.app.inject({ url });
    expect(rendersOf(url)).toBe(before + 1);
    expect(rootOf(stopped.body)).toMatch(/class="board-clock"[^>]*>(10:00|9:5\d)</);
  });
});
