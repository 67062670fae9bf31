import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { localUid } from '../src/auth/local-uid.ts';
import { API, databaseKinds, useTestApp } from './helpers.ts';

// The Scoreboards screen, the one rendered page that shows the signed-in user's own things:
// each user's HTML holds that user's games and session only, however the requests interleave
// with the render cache, and a signed-out visitor gets the invitation to sign in (SPEC §2). The
// real SSR bundle (vite.ssr.config.ts) and the real database.

const WEB_ROOT = path.resolve(import.meta.dirname, '../../web');
const INDEX =
  '<!doctype html><html><head><title>Sagan</title></head>' +
  '<body><div id="root"></div><script type="module" src="/apps/sagan/assets/index.js"></script></body></html>';
const URL = '/apps/sagan/scoreboards';

let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sagan-rendered-scoreboards-'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  await build({
    root: WEB_ROOT,
    configFile: path.join(WEB_ROOT, 'vite.ssr.config.ts'),
    logLevel: 'silent',
    build: { outDir: path.join(dist, '.ssr') },
  });
}, 120_000);
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const rootOf = (html: string) =>
  /<div id="root"[^>]*>([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

function jsonOf(html: string, id: string): unknown {
  const m = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  return m?.[1] === undefined ? undefined : JSON.parse(m[1]);
}

describe.each(databaseKinds())('the rendered Scoreboards screen on $name', (kind) => {
  const t = useTestApp(kind, () => ({ users: ['Ada', 'Bea'], config: { webDist: dist } }));
  const page = (who?: 'Ada' | 'Bea') =>
    who ? t.users[who].request({ url: URL }) : t.app.inject({ url: URL });

  beforeAll(async () => {
    for (const [who, gameName] of [
      ['Ada', 'Ada Home Cup'],
      ['Bea', 'Bea Away Derby'],
    ] as const) {
      const res = await t.users[who].request({
        method: 'POST',
        url: `${API}/games`,
        payload: { gameName },
      });
      expect(res.statusCode).toBe(200);
    }
    // The users' game lists are numbered after the write (decisions/0015).
    await t.app.hub.coalescer.settled();
  });

  it("each user's page holds that user's games and session, never the other's", async () => {
    // Alternately, so a cached render of one would be what the other is sent.
    for (const who of ['Ada', 'Bea', 'Ada', 'Bea'] as const) {
      const res = await page(who);
      expect(res.statusCode).toBe(200);
      const [own, other] =
        who === 'Ada' ? ['Ada Home Cup', 'Bea Away Derby'] : ['Bea Away Derby', 'Ada Home Cup'];
      const root = rootOf(res.body);
      expect(root).toContain('My Games');
      expect(root).toContain(own);
      expect(root).not.toContain(other);
      expect(res.body).not.toContain(other);
      // Nothing left loading: the app's first render, given the same session, is the same.
      expect(root).not.toContain('class="loading');
      const uid = localUid(who);
      expect(jsonOf(res.body, 'sagan-session')).toEqual({ user: { uid, displayName: who } });
      const states = jsonOf(res.body, 'sagan-initial') as { topic: string; seq: number }[];
      expect(states.map((s) => s.topic).sort()).toEqual(
        [
          myGamesTopic.name(uid),
          myScoringTopic.name(uid),
          favoritesTopic.name(uid),
          followedTagsTopic.name(uid),
        ].sort(),
      );
      // The numbers the client resumes from label the states it was given.
      for (const s of states)
        expect(s).toEqual({ topic: s.topic, ...(await t.app.hub.current(s.topic)) });
      // Neither the browser nor a cache between keeps one user's page.
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('signed out, the page invites to sign in and carries no one', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toContain('to see My Games, Bookmarked Games and the Tagged Games');
    expect(root).not.toContain('Ada Home Cup');
    expect(root).not.toContain('Bea Away Derby');
    expect(jsonOf(res.body, 'sagan-session')).toEqual({ user: null });
    expect(jsonOf(res.body, 'sagan-initial')).toEqual([]);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it("a new game shows in its user's next page, and only there", async () => {
    const res = await t.users.Ada.request({
      method: 'POST',
      url: `${API}/games`,
      payload: { gameName: 'Ada Second Match' },
    });
    expect(res.statusCode).toBe(200);
    await t.app.hub.coalescer.settled();
    expect(rootOf((await page('Ada')).body)).toContain('Ada Second Match');
    expect((await page('Bea')).body).not.toContain('Ada Second Match');
  });

  it('a shared page carries no session', async () => {
    const res = await t.users.Ada.request({ url: '/apps/sagan/' });
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res.body, 'sagan-session')).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});
