import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockText, type ClockTopic } from '@sagan/shared/game-clock';
import { buildApp } from '../src/app.ts';
import { jsonForScript } from '../src/web-app.ts';
import {
  API,
  databaseKinds,
  newGameOf,
  testConfig,
  type TestDatabase,
  useTestApp,
} from './helpers.ts';
import { useSsrBundle, writeFiles } from './ssr-bundle.ts';

// The server-rendered first paint (docs/decisions/0013): the real SSR bundle, built here from
// apps/web with its own config, rendered by the real server from the real database.

const INDEX =
  '<!doctype html><html><head><title>Sagan</title></head>' +
  '<body><div id="root"></div><script type="module" src="/apps/sagan/assets/index.js"></script></body></html>';
const NASTY = '</script><script>alert(1)</script>';

/** A web build folder: index.html, and optionally an SSR bundle and a build manifest. */
function webDist(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-first-paint-'));
  writeFiles(dir, { 'index.html': INDEX, ...files });
  return dir;
}

/** What `vite build --manifest` writes for the scoreboard page, reduced to its shape. */
const MANIFEST = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    imports: ['_routes-b.js'],
    css: ['assets/index-c.css'],
  },
  '_routes-b.js': { file: 'assets/routes-b.js' },
  '_scoreboards-d.js': {
    file: 'assets/scoreboards-d.js',
    imports: ['index.html', '_routes-b.js'],
    css: ['assets/scoreboards-e.css'],
  },
  'src/features/scoreboards/scoreboard-page.tsx': {
    file: 'assets/scoreboard-page-f.js',
    isDynamicEntry: true,
    imports: ['_routes-b.js', 'index.html', '_scoreboards-d.js'],
  },
};

const bundleDir = useSsrBundle({
  'index.html': INDEX,
  '.vite/manifest.json': JSON.stringify(MANIFEST),
});

/** The JSON states the page carries, parsed as main.tsx reads them. */
function initialStates(html: string): { topic: string; seq: number; data: unknown }[] | null {
  const m = /<script type="application\/json" id="sagan-initial">([^<]*)<\/script>/.exec(html);
  return m?.[1] ? JSON.parse(m[1]) : null;
}

const rootOf = (html: string) =>
  /<div id="root"[^>]*>([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

describe('jsonForScript', () => {
  it('leaves nothing that could end the script element or break it as JavaScript', () => {
    const text = jsonForScript({ a: `${NASTY}<!--\u2028\u2029` });
    expect(text).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ a: `${NASTY}<!--\u2028\u2029` });
  });
});

describe.each(databaseKinds())('server-rendered first paint on $name', (kind) => {
  let gameKey: string;

  const t = useTestApp(kind, () => ({
    users: ['Keeper'],
    config: { webDist: bundleDir() },
  }));
  beforeAll(async () => {
    gameKey = (
      await t.users.Keeper.request({
        method: 'POST',
        url: `${API}/games`,
        payload: {},
      })
    ).json().gameKey as string;
    const patched = await t.users.Keeper.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: {
        gameName: 'Rendered Cup',
        sportID: 2,
        gamePeriod: 'Q3',
        homeTeamName: NASTY,
        awayTeamName: 'Line\u2028Sep & Co',
        homeScore: 57,
        awayScore: 49,
      },
    });
    expect(patched.statusCode).toBe(200);
    await t.users.Keeper.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/clock`,
      payload: { formattedTime: '3:21', seconds: 201 },
    });
  });

  it('the scoreboard HTML holds the board: score, teams (escaped), period and clock', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${gameKey}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    // Busy until the app has taken it over (main.tsx ends it): its controls do nothing before.
    expect(res.body).toContain('<div id="root" aria-busy="true">');
    const root = rootOf(res.body);
    expect(root).toContain('class="board board-basketball"');
    expect(root).toMatch(/class="board-score"[^>]*>57</);
    expect(root).toMatch(/class="board-score"[^>]*>49</);
    expect(root).toContain('&lt;/script>&lt;script>alert(1)&lt;/script>');
    expect(root).toContain('Line\u2028Sep &amp; Co');
    expect(root).toContain('>Rendered Cup<');
    expect(root).toContain('>3:21<');
    // The watcher line's words are in the first paint, only its count left to come: a line
    // that appeared once the app had asked was the page's largest paint, seconds late.
    expect(root).toMatch(
      /class="watchers muted"[^]*Watching now:\u00a0<span class="watchers-count">–</,
    );
    // The layout came along: the top menu and the footer.
    expect(root).toContain('class="top-menu"');
    expect(root).toContain('class="site-footer"');
    // CSP: server markup must not rely on inline style attributes.
    expect(root).not.toMatch(/\sstyle=/);
    // Nothing the scorekeeper typed became markup anywhere in the page.
    expect(res.body).not.toContain(NASTY);
    // The JSON beside it is escaped too (< and the JavaScript line separators).
    const json = /id="sagan-initial">([^<]*)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(json).toContain('\\u003c/script>');
    expect(json).toContain('Line\\u2028Sep');
    expect(json).not.toMatch(/[\u2028\u2029]/);
  });

  it('carries the states it was rendered with, for the client to resume from', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${gameKey}` });
    const states = initialStates(res.body);
    expect(states?.map((s) => s.topic)).toEqual([
      `game:${gameKey}`,
      `clock:${gameKey}`,
      `gamedetail:${gameKey}`,
    ]);
    // The line score is in the page as rendered, so it does not appear after paint.
    expect(states![2]!.data).toMatchObject({ lineScore: { kind: expect.any(String) } });
    expect(rootOf(res.body)).toContain('aria-label="Line score"');
    const game = states![0]!.data as { top: { homeTeamName: string; awayTeamName: string } };
    expect(game.top.homeTeamName).toBe(NASTY);
    expect(game.top.awayTeamName).toBe('Line\u2028Sep & Co');
    expect(states![0]!.seq).toBe((await t.app.hub.current(`game:${gameKey}`)).seq);
    // The phone's tick: a stopped clock showing the phone's text, stamped with the server's time.
    expect(states![1]!.data).toMatchObject({ formattedTime: '3:21', seconds: 201, running: false });
    expect((states![1]!.data as { serverTime: number }).serverTime).toBeGreaterThan(
      Date.now() - 5000,
    );
  });

  it("a running clock's time is left out of the markup, and carried as its state", async () => {
    const key = await newGameOf(t.users.Keeper, { sportID: 2, gameName: 'Clock Cup' });
    const control = (payload: object) =>
      t.users.Keeper.request({
        method: 'POST',
        url: `${API}/games/${key}/clock/control`,
        payload,
      });
    expect((await control({ action: 'set', seconds: 600, direction: 'down' })).statusCode).toBe(
      200,
    );
    expect((await control({ action: 'start' })).statusCode).toBe(200);
    // As if it had started 65 s ago: nothing was written since, the page computes 8:55.
    await t.db.query(
      'UPDATE games SET clock_started_at = clock_started_at - 65000 WHERE game_key = $1',
      [key],
    );
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${key}` });
    // The page is cached until the clock's state changes: a time in it would stay frozen there.
    // The slot (as wide as any time) waits for after-paint.js and the app.
    expect(rootOf(res.body)).toMatch(/class="board-clock"[^>]*>--:--</);
    const clock = initialStates(res.body)![1]!.data as NonNullable<ClockTopic>;
    expect(clock.running).toBe(true);
    expect(clock.serverTime).toBeGreaterThan(Date.now() - 5000);
    expect(clockText(clock, clock.serverTime)).toMatch(/^8:5[45]$/);
  });

  it('shows a write at once in the next page load', async () => {
    await t.users.Keeper.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { homeScore: 60 },
    });
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${gameKey}` });
    expect(rootOf(res.body)).toMatch(/class="board-score"[^>]*>60</);
  });

  it('links the page chunk, its imports and its stylesheet from the manifest', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboard/${gameKey}` });
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain(
      '<link rel="stylesheet" crossorigin href="/apps/sagan/assets/scoreboards-e.css">',
    );
    expect(head).toContain(
      '<link rel="modulepreload" crossorigin href="/apps/sagan/assets/scoreboard-page-f.js">',
    );
    expect(head).toContain(
      '<link rel="modulepreload" crossorigin href="/apps/sagan/assets/scoreboards-d.js">',
    );
    // What index.html loads already is not linked twice.
    expect(head).not.toContain('routes-b.js');
    expect(head).not.toContain('index-c.css');
  });

  it('the mini card is rendered bare, without menu or footer', async () => {
    const res = await t.app.inject({ url: `/apps/sagan/viewscoreboardmini/${gameKey}` });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain('class="mini-page"');
    expect(root).toContain('summary-card');
    expect(root).toContain('Rendered Cup');
    expect(root).not.toContain('top-menu');
    expect(initialStates(res.body)?.map((s) => s.topic)).toEqual([
      `game:${gameKey}`,
      `clock:${gameKey}`,
    ]);
    // The clock is in the card as rendered, not filled in after paint.
    expect(rootOf(res.body)).toContain('aria-label="Clock 3:21"');
  });

  it('an unknown game renders the friendly not-found, with status 404', async () => {
    const res = await t.app.inject({ url: '/apps/sagan/viewscoreboard/no-such-game' });
    expect(res.statusCode).toBe(404);
    expect(rootOf(res.body)).toContain('We could not find this scoreboard.');
    expect(initialStates(res.body)).toEqual([
      expect.objectContaining({ topic: 'game:no-such-game', data: null }),
      expect.objectContaining({ topic: 'clock:no-such-game', data: null }),
      expect.objectContaining({ topic: 'gamedetail:no-such-game', data: null }),
    ]);
    const mini = await t.app.inject({ url: '/apps/sagan/viewscoreboardmini/no-such-game' });
    expect(mini.statusCode).toBe(404);
    expect(rootOf(mini.body)).toContain('We could not find this scoreboard.');
  });

  it('a malformed key (not found) and other routes get the plain page', async () => {
    for (const [url, status] of [
      ['/apps/sagan/viewscoreboard/bad.key', 404],
      ['/apps/sagan/playcounts', 200],
    ] as const) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(status);
      expect(res.body).toContain('<div id="root"></div>');
      expect(initialStates(res.body)).toBeNull();
    }
  });

  it('never serves the server bundle or the build manifest', async () => {
    for (const url of ['/apps/sagan/.ssr/entry-server.js', '/apps/sagan/.vite/manifest.json']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('renderScoreboard');
      expect(res.body).not.toContain('scoreboard-page-f.js');
    }
  });
});

// Not useTestApp: each case builds its own app on one database, with a broken web build of
// its own and a logger whose error lines the case reads.
describe('server-rendered first paint when rendering cannot work', () => {
  const kind = databaseKinds()[0]!;
  let t: TestDatabase;
  const dirs: string[] = [];
  beforeAll(async () => {
    t = await kind.open();
  });
  afterAll(async () => {
    await t.cleanup();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  async function appWith(files: Record<string, string>) {
    const dir = webDist(files);
    dirs.push(dir);
    const logs: string[] = [];
    const app = await buildApp(testConfig({ webDist: dir }), {
      db: t.db,
      logger: { level: 'error', stream: { write: (line: string) => void logs.push(line) } },
    });
    await app.ready();
    return { app, logs };
  }

  it('a render that throws is logged and the viewer gets the client-rendered page', async () => {
    const { app, logs } = await appWith({
      '.ssr/entry-server.js':
        'export async function renderScoreboard() { throw new Error("render exploded"); }',
    });
    try {
      const res = await app.inject({ url: '/apps/sagan/viewscoreboard/some-game' });
      // The status comes from the data, not the render: there is no such game.
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('sagan-initial');
      expect(logs.join('\n')).toContain('render exploded');
    } finally {
      await app.close();
    }
  });

  it('a bundle that does not load leaves the server up, serving the plain page', async () => {
    const { app, logs } = await appWith({ '.ssr/entry-server.js': 'export const = ;' });
    try {
      const res = await app.inject({ url: '/apps/sagan/viewscoreboard/some-game' });
      expect(res.statusCode).toBe(404); // no such game: told by the data, with or without a bundle
      expect(res.body).toContain('<div id="root"></div>');
      expect(logs.join('\n')).toContain('server rendering disabled');
    } finally {
      await app.close();
    }
  });

  it('without a bundle (a build from before, or none) the page is served as always', async () => {
    const { app } = await appWith({});
    try {
      const res = await app.inject({ url: '/apps/sagan/viewscoreboard/some-game' });
      expect(res.statusCode).toBe(404); // no such game: told by the data, with or without a bundle
      expect(res.body).toContain('<div id="root"></div>');
    } finally {
      await app.close();
    }
  });
});
