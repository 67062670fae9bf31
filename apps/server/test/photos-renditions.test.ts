import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { Player, PublicRoster } from '@sagan/shared/teamsheet-schemas';
import { photoStoreOf } from '../src/routes/photos/public.ts';
import { anonymous, API, databaseKinds, newTeamOf, useTempDir, useTestApp } from './helpers.ts';

/** A portrait phone photo: stored at 768×1024 (the pipeline bounds the longer side). */
const portrait = () =>
  sharp({ create: { width: 900, height: 1200, channels: 3, background: '#2a6' } })
    .jpeg()
    .toBuffer();

async function expectRendition(res: LightMyRequestResponse, width: number, visibility: string) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/webp');
  expect(res.headers['cache-control']).toBe(`${visibility}, no-cache`);
  expect(res.headers['etag']).toMatch(/^"[\w-]+"$/);
  const meta = await sharp(res.rawPayload).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.width).toBe(width);
  expect(meta.exif).toBeUndefined();
  return meta;
}

/** Refused as a missing photo is: a 404 no cache may keep, and no picture. */
function expectGone(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, what).toBe(404);
  expect(res.headers['cache-control'], what).toBe('no-store');
  expect(String(res.headers['content-type']), what).not.toMatch(/^image\//);
}

describe.each(databaseKinds())("a player photo's renditions, on $name", (kind) => {
  const dataDir = useTempDir('sagan-photo-renditions-');
  const photoDir = () => path.join(dataDir(), 'photos');
  const anon = () => anonymous(t.app);
  const t = useTestApp(kind, () => ({
    users: ['Coach', 'Stranger'],
    config: { dataDir: dataDir() },
  }));
  let teamKey: string;
  let playerKey: string;
  let publishedAsKey: string;
  /** The published sheet's URL of the player's photo, as the player page gets it. */
  let publicUrl: string;
  const ownerUrl = () => `${API}/teams/${teamKey}/players/${playerKey}/photo`;

  async function addPlayerWithPhoto(name: string): Promise<string> {
    const player = (
      await t.users.Coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/-1`,
        payload: { jersey: '9', playerName: name },
      })
    ).json<Player>();
    const res = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${player.key}/photo`,
      headers: { 'content-type': 'image/jpeg' },
      payload: await portrait(),
    });
    expect(res.statusCode).toBe(200);
    return player.key;
  }
  const setHidePhotos = async (hidePhotos: boolean) =>
    expect(
      (
        await t.users.Coach.request({
          method: 'PUT',
          url: `${API}/teams/${teamKey}/privacy`,
          payload: { initialsOnly: false, hidePhotos },
        })
      ).statusCode,
    ).toBe(200);
  const renditionFiles = () => fs.readdirSync(photoDir()).filter((n) => n.endsWith('.webp'));

  beforeAll(async () => {
    teamKey = await newTeamOf(t.users.Coach);
    playerKey = await addPlayerWithPhoto('Kid One');
    publishedAsKey = (
      await t.users.Coach.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` })
    ).json<{ publishedAsKey: string }>().publishedAsKey;
    const roster = (
      await anon()({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })
    ).json<PublicRoster>().roster;
    publicUrl = roster.find((p) => p.key === playerKey)!.imageURL;
    expect(publicUrl).toMatch(/\/photo\?v=\w+$/);
  });

  it('each width is that wide, WebP, never wider than the photo, with the same cache answers', async () => {
    const original = await anon()({ method: 'GET', url: publicUrl });
    expect(original.headers['content-type']).toBe('image/jpeg');
    const stored = await sharp(original.rawPayload).metadata();
    expect([stored.width, stored.height]).toEqual([768, 1024]);

    const etags = new Set([original.headers['etag']]);
    for (const [w, expected] of [
      [160, 160],
      [320, 320],
      [640, 640],
      [1280, 768], // the stored photo is 768 wide: never enlarged
    ] as const) {
      const res = await anon()({ method: 'GET', url: `${publicUrl}&w=${w}` });
      const meta = await expectRendition(res, expected, 'public');
      expect(meta.height).toBe(Math.round((expected * 1024) / 768));
      expect(res.rawPayload.length).toBeLessThan(original.rawPayload.length);
      etags.add(res.headers['etag']);
      // Revalidated like the photo: a 304 while unchanged.
      const again = await anon()({
        method: 'GET',
        url: `${publicUrl}&w=${w}`,
        headers: { 'if-none-match': String(res.headers['etag']) },
      });
      expect(again.statusCode).toBe(304);
      expect(again.headers['cache-control']).toBe('public, no-cache');
    }
    // Each representation has its own validator.
    expect(etags.size).toBe(5);
    // Kept beside the photo: made once, then read from disk.
    expect(renditionFiles().sort()).toHaveLength(4);
    const kept = fs.statSync(path.join(photoDir(), renditionFiles()[0]!)).mtimeMs;
    await anon()({ method: 'GET', url: `${publicUrl}&w=320` });
    expect(fs.statSync(path.join(photoDir(), renditionFiles()[0]!)).mtimeMs).toBe(kept);

    // The owner's private path offers the same widths, privately.
    await expectRendition(
      await t.users.Coach.request({ method: 'GET', url: `${ownerUrl()}?w=640` }),
      640,
      'private',
    );
  });

  it('a width not offered, or not a number, is a clear 400', async () => {
    for (const w of ['300', '0', '16', '-320', 'abc', '1e3', '320.0', '99999999999', '']) {
      for (const url of [`${publicUrl}&w=${w}`, `${ownerUrl()}?w=${w}`]) {
        const res = await t.users.Coach.request({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ error: string }>().error, url).toMatch(
          /^Invalid request: w must be one of 160, 320, 640, 1280/,
        );
      }
    }
  });

  it('refused exactly as the photo is: not published, hidden, not the owner, signed out', async () => {
    const url = `${publicUrl}&w=320`;
    const own = `${ownerUrl()}?w=320`;
    expect((await anon()({ method: 'GET', url: own })).statusCode).toBe(401);
    expectGone(await t.users.Stranger.request({ method: 'GET', url: own }), 'a stranger');
    // Another sheet's key with this player's key: nothing.
    const theirs = `${API}/rosters/${teamKey}/players/${playerKey}/photo?w=320`;
    expectGone(await anon()({ method: 'GET', url: theirs }), 'not a published key');

    await setHidePhotos(true);
    const etag = String((await t.users.Coach.request({ method: 'GET', url: own })).headers['etag']);
    expectGone(await anon()({ method: 'GET', url }), 'hidden');
    expectGone(
      await anon()({ method: 'GET', url, headers: { 'if-none-match': etag } }),
      'hidden, revalidating',
    );
    await expectRendition(await t.users.Coach.request({ method: 'GET', url: own }), 320, 'private');
    await setHidePhotos(false);
    await expectRendition(await anon()({ method: 'GET', url }), 320, 'public');

    await t.users.Coach.request({ method: 'DELETE', url: `${API}/teams/${teamKey}/publish` });
    expectGone(await anon()({ method: 'GET', url }), 'unpublished');
    await t.users.Coach.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` });
    await expectRendition(await anon()({ method: 'GET', url }), 320, 'public');
  });

  it('a photo without renditions on disk (older, or restored from a backup) makes them again', async () => {
    for (const name of renditionFiles()) fs.rmSync(path.join(photoDir(), name));
    await expectRendition(
      await anon()({ method: 'GET', url: `${publicUrl}&w=640` }),
      640,
      'public',
    );
    expect(renditionFiles()).toHaveLength(1);
  });

  it('a deleted player takes the renditions with it; a new photo drops the old ones', async () => {
    const before = new Set(fs.readdirSync(photoDir()));
    const doomed = await addPlayerWithPhoto('Kid Two');
    const url = `${API}/rosters/${publishedAsKey}/players/${doomed}/photo`;
    for (const w of [320, 640]) {
      await expectRendition(await anon()({ method: 'GET', url: `${url}?w=${w}` }), w, 'public');
    }
    const made = fs.readdirSync(photoDir()).filter((n) => !before.has(n));
    const photoId = made.find((n) => n.endsWith('.jpg'))!.replace(/\.jpg$/, '');
    expect(made.sort()).toEqual([`${photoId}.jpg`, `${photoId}.w320.webp`, `${photoId}.w640.webp`]);

    // A new photo: the old photo's file and its renditions go, the new one makes its own.
    const res = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${doomed}/photo`,
      headers: { 'content-type': 'image/jpeg' },
      payload: await portrait(),
    });
    expect(res.statusCode).toBe(200);
    const ofOld = () => fs.readdirSync(photoDir()).filter((n) => n.startsWith(photoId));
    expect(ofOld()).toEqual([]);
    await expectRendition(await anon()({ method: 'GET', url: `${url}?w=320` }), 320, 'public');
    const newId = fs
      .readdirSync(photoDir())
      .find((n) => n.endsWith('.w320.webp') && !before.has(n))!
      .split('.')[0]!;

    await t.users.Coach.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/players/${doomed}`,
    });
    expectGone(await anon()({ method: 'GET', url: `${url}?w=320` }), 'deleted player');
    expect(fs.readdirSync(photoDir()).filter((n) => n.startsWith(newId))).toEqual([]);
    // The other player's photo and renditions are untouched.
    expect(fs.readdirSync(photoDir()).sort()).toEqual([...before].sort());
  });

  it('the start-up sweep removes renditions whose photo is gone', async () => {
    const orphan = path.join(photoDir(), 'AAAAAAAAAAAAAAAAAAAA.w320.webp');
    fs.writeFileSync(orphan, 'x');
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(orphan, old, old);
    const kept = renditionFiles().filter((n) => !n.startsWith('AAAA'));
    await photoStoreOf(dataDir()).sweep(t.db, t.app.log);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(renditionFiles().sort()).toEqual(kept.sort());
  });
});
