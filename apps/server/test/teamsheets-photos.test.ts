import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  anonymous,
  API,
  databaseKinds,
  listenWs,
  newTeamOf,
  useTempDir,
  useTestApp,
} from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';
import type { Player, TeamSheet } from '@sagan/shared/teamsheet-schemas';

/** A noisy photo (noise does not compress, like a real one) with GPS data in its EXIF. */
async function gpsJpeg(width = 1600, height = 1200): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .withExif({
      IFD0: { Copyright: 'Team photographer' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
}

/** A valid small PNG with its IHDR rewritten to 10000×10000 (and the CRC fixed). */
async function pixelBomb(): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  // Signature (8) + length (4) + 'IHDR' (4), then width and height.
  png.writeUInt32BE(10000, 16);
  png.writeUInt32BE(10000, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

describe.each(databaseKinds())('player photos and live sheets on $name', (kind) => {
  const dataDir = useTempDir('sagan-photos-');
  let teamKey: string;
  let player: Player;

  const t = useTestApp(kind, () => ({
    users: ['Owner', 'Other'],
    config: { dataDir: dataDir() },
  }));
  beforeAll(async () => {
    teamKey = await newTeamOf(t.users.Owner);
    player = (
      await t.users.Owner.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/-1`,
        payload: { jersey: '4', playerName: 'Pia Photo' },
      })
    ).json<Player>();
  });

  const photoUrl = `${API}/teams/{team}/players/{player}/photo`;
  const upload = (body: Buffer | string, contentType: string, who = t.users.Owner) =>
    who.request({
      method: 'PUT',
      url: photoUrl.replace('{team}', teamKey).replace('{player}', player.key),
      headers: { 'content-type': contentType },
      payload: body,
    });

  it('a photo with GPS EXIF is served re-encoded, bounded, and without any metadata', async () => {
    const input = await gpsJpeg();
    expect((await sharp(input).metadata()).exif).toBeDefined(); // the test input really has it
    const res = await upload(input, 'image/jpeg');
    expect(res.statusCode).toBe(200);
    const saved = res.json<Player>();
    // Reached through the owner's sheet, never by a file name.
    expect(saved.imageURL).toMatch(
      new RegExp(`^/apps/sagan/api/teams/${teamKey}/players/${player.key}/photo\\?v=\\w+$`),
    );

    expect((await anonymous(t.app)({ method: 'GET', url: saved.imageURL })).statusCode).toBe(401);
    const served = await t.users.Owner.request({ method: 'GET', url: saved.imageURL });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('private, no-cache');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(1024);
    expect(served.rawPayload.includes(Buffer.from('Team photographer'))).toBe(false);
    // Stored under the data folder, nowhere else.
    expect(fs.readdirSync(path.join(dataDir(), 'photos'))).toHaveLength(1);
  });

  it('accepts a data URL as the original app sent it, and replaces the old file', async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#c00' },
    })
      .png()
      .toBuffer();
    const res = await t.users.Owner.request({
      method: 'PUT',
      url: photoUrl.replace('{team}', teamKey).replace('{player}', player.key),
      payload: { dataUrl: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(res.statusCode).toBe(200);
    const served = await t.users.Owner.request({
      method: 'GET',
      url: res.json<Player>().imageURL,
    });
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 40, 30]);
    expect(fs.readdirSync(path.join(dataDir(), 'photos'))).toHaveLength(1);
  });

  it('refuses what is not a raster image with 415, and too large with 413', async () => {
    const before = (
      await t.users.Owner.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json<TeamSheet>().roster[0]!.imageURL;
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>';
    expect((await upload(svg, 'image/svg+xml')).statusCode).toBe(415);
    expect((await upload('<html><script>1</script></html>', 'image/png')).statusCode).toBe(415);
    expect((await upload('<html></html>', 'text/html')).statusCode).toBe(415);
    const dataSvg = await t.users.Owner.request({
      method: 'PUT',
      url: photoUrl.replace('{team}', teamKey).replace('{player}', player.key),
      payload: { dataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` },
    });
    expect(dataSvg.statusCode).toBe(415);
    expect((await upload(Buffer.alloc(9 * 1024 * 1024, 1), 'image/jpeg')).statusCode).toBe(413);
    // A pixel bomb: a tiny PNG whose header claims 100 megapixels.
    const bomb = await pixelBomb();
    expect(bomb.length).toBeLessThan(1024);
    expect((await upload(bomb, 'image/png')).statusCode).toBe(413);
    const after = (
      await t.users.Owner.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json<TeamSheet>().roster[0]!.imageURL;
    expect(after).toBe(before);
  });

  it('another user cannot set the photo, and nothing is stored', async () => {
    const files = fs.readdirSync(path.join(dataDir(), 'photos')).length;
    const res = await upload(await gpsJpeg(64, 64), 'image/jpeg', t.users.Other);
    expect(res.statusCode).toBe(404);
    expect(fs.readdirSync(path.join(dataDir(), 'photos'))).toHaveLength(files);
  });

  it('no route serves a file by its name any more; malformed keys are refused', async () => {
    const anon = anonymous(t.app);
    const [file] = fs.readdirSync(path.join(dataDir(), 'photos'));
    expect((await anon({ method: 'GET', url: `${API}/photos/${file}` })).statusCode).toBe(404);
    expect((await anon({ method: 'GET', url: `${API}/photos/..%2Fsagan.lock` })).statusCode).toBe(
      404,
    );
    const bad = await t.users.Owner.request({
      method: 'GET',
      url: `${API}/teams/${teamKey}/players/..%2F..%2Fsagan.lock/photo`,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('an open public sheet updates live when the owner republishes; team topic is owner-only', async () => {
    const wsUrl = await listenWs(t.app);
    const pub = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    const { publishedAsKey } = pub.json<{ publishedAsKey: string }>();
    const viewer = await TestSocket.open(wsUrl);
    const topic = `roster:${publishedAsKey}`;
    const first = await viewer.subscribe(topic);
    expect(first.data).toMatchObject({ teamName: 'New Team' });

    await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: 'Live Team', teamNotes: '' },
    });
    const from = viewer.messages.length;
    await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    // The edit and the republish each send the sheet: either shows the new name.
    await viewer.stateShowing<{ teamName: string } | null>(
      topic,
      (sheet) => sheet?.teamName === 'Live Team',
      from,
    );
    const from2 = viewer.messages.length;
    await t.users.Owner.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/publish`,
    });
    // The edit and the republish each send the sheet, and the second may still be on its way:
    // wait for the unpublished state itself (it times out if none comes); no sheet may follow it.
    const gone = await viewer.stateShowing(topic, (sheet) => sheet === null, from2);
    const after = viewer.messages.slice(viewer.messages.indexOf(gone) + 1);
    expect(after.filter(isState(topic))).toEqual([]);
    viewer.close();

    const stranger = await TestSocket.open(wsUrl, { cookie: t.users.Other.cookie });
    stranger.send({ type: 'subscribe', topic: `team:${teamKey}` });
    const refused = await stranger.waitFor(
      (m): m is Extract<typeof m, { type: 'error' }> => m.type === 'error',
    );
    expect(refused.message).toMatch(/access/);
    stranger.close();
    const mine = await TestSocket.open(wsUrl, { cookie: t.users.Owner.cookie });
    mine.send({ type: 'subscribe', topic: `team:${teamKey}` });
    const state = await mine.waitFor(isState(`team:${teamKey}`));
    expect(state.data).toMatchObject({ teamKey, teamName: 'Live Team' });
    mine.close();
  });
});
