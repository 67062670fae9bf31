import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import {
  anonymous,
  API,
  buildTestApp,
  databaseKinds,
  signInLocal,
  type TestDatabase,
  type TestUser,
} from './helpers.ts';
import type { AddressInfo } from 'node:net';
import { isState, TestSocket } from './ws-client.ts';

// Children's privacy: the owner's choice changes what an anonymous visitor RECEIVES.
describe.each(databaseKinds())('public sheet privacy on $name', (kind) => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let owner: TestUser;
  let other: TestUser;
  let teamKey: string;
  let publishedAsKey: string;

  beforeAll(async () => {
    t = await kind.open();
    app = await buildTestApp(t.db);
    owner = await signInLocal(app, 'Privacy Coach');
    other = await signInLocal(app, 'Privacy Stranger');
    teamKey = (await owner.request({ method: 'POST', url: `${API}/teams` })).json().teamKey;
    const p = await owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/-1`,
      payload: { jersey: '7', playerName: 'Ada Lovelace', playerNotes: 'Loves maths' },
    });
    const playerKey = p.json().key as string;
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .jpeg()
      .toBuffer();
    const photo = await owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${playerKey}/photo`,
      headers: { 'content-type': 'image/jpeg' },
      payload: jpeg,
    });
    expect(photo.statusCode).toBe(200);
    publishedAsKey = (
      await owner.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` })
    ).json().publishedAsKey;
  });
  afterAll(async () => {
    await app.close();
    await t.cleanup();
  });

  const publicSheet = async () =>
    (await anonymous(app)({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })).json();

  it('shows full names and photos by default', async () => {
    expect(
      (await owner.request({ method: 'GET', url: `${API}/teams/${teamKey}/privacy` })).json(),
    ).toEqual({
      initialsOnly: false,
      hidePhotos: false,
    });
    const sheet = await publicSheet();
    expect(sheet.roster[0].playerName).toBe('Ada Lovelace');
    expect(sheet.roster[0].imageURL).toMatch(
      new RegExp(`^/apps/sagan/api/rosters/${publishedAsKey}/players/[\\w-]+/photo`),
    );
  });

  it('initials only and hidden photos: the anonymous response never carries them, live too', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const ws = await TestSocket.open(`ws://127.0.0.1:${port}/apps/sagan/ws`);
    const topic = `roster:${publishedAsKey}`;
    try {
      ws.send({ type: 'subscribe', topic });
      expect((await ws.waitFor(isState(topic))).data).toMatchObject({
        roster: [{ playerName: 'Ada Lovelace' }],
      });
      const from = ws.messages.length;
      const res = await owner.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/privacy`,
        payload: { initialsOnly: true, hidePhotos: true },
      });
      expect(res.json()).toEqual({ initialsOnly: true, hidePhotos: true });
      const text = JSON.stringify(await publicSheet());
      expect(text).not.toContain('Ada');
      expect(text).not.toContain('Lovelace');
      expect(text).not.toContain('/photo');
      expect((await publicSheet()).roster[0]).toMatchObject({
        playerName: 'A. L.',
        imageURL: '',
        jersey: '7',
      });
      const live = await ws.waitFor(isState(topic), from);
      expect(live.data).toMatchObject({ roster: [{ playerName: 'A. L.', imageURL: '' }] });
      expect(JSON.stringify(live)).not.toContain('Lovelace');
    } finally {
      ws.close();
    }
    // The owner's own sheet still has everything.
    const mine = (await owner.request({ method: 'GET', url: `${API}/teams/${teamKey}` })).json();
    expect(mine.roster[0].playerName).toBe('Ada Lovelace');
  });

  it('only the owner may read or change the choice', async () => {
    const anon = anonymous(app);
    expect((await anon({ method: 'GET', url: `${API}/teams/${teamKey}/privacy` })).statusCode).toBe(
      401,
    );
    expect(
      (
        await anon({
          method: 'PUT',
          url: `${API}/teams/${teamKey}/privacy`,
          payload: { initialsOnly: false, hidePhotos: false },
        })
      ).statusCode,
    ).toBe(401);
    const res = await other.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: false, hidePhotos: false },
    });
    expect(res.statusCode).toBe(404);
    expect((await publicSheet()).roster[0].playerName).toBe('A. L.');
    const bad = await owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
