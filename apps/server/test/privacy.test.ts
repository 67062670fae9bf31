import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { anonymous, API, databaseKinds, listenWs, useTestApp } from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

// Children's privacy: the owner's choice changes what an anonymous visitor RECEIVES.
describe.each(databaseKinds())('public sheet privacy on $name', (kind) => {
  let teamKey: string;
  let publishedAsKey: string;

  const t = useTestApp(kind, { users: ['Coach', 'Stranger'] });
  beforeAll(async () => {
    teamKey = (await t.users.Coach.request({ method: 'POST', url: `${API}/teams` })).json().teamKey;
    const p = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/-1`,
      payload: { jersey: '7', playerName: 'Ada Lovelace', playerNotes: 'Loves maths' },
    });
    const playerKey = p.json().key as string;
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .jpeg()
      .toBuffer();
    const photo = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${playerKey}/photo`,
      headers: { 'content-type': 'image/jpeg' },
      payload: jpeg,
    });
    expect(photo.statusCode).toBe(200);
    publishedAsKey = (
      await t.users.Coach.request({
        method: 'POST',
        url: `${API}/teams/${teamKey}/publish`,
      })
    ).json().publishedAsKey;
  });

  let listening: string | undefined;
  const wsUrl = async () => (listening ??= await listenWs(t.app));

  const publicSheet = async () =>
    (await anonymous(t.app)({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })).json();

  it('shows full names and photos by default', async () => {
    expect(
      (
        await t.users.Coach.request({
          method: 'GET',
          url: `${API}/teams/${teamKey}/privacy`,
        })
      ).json(),
    ).toEqual({
      initialsOnly: false,
      hidePhotos: false,
      // Notes often hold health details: a new team keeps them off the public sheet.
      hideNotes: true,
    });
    const sheet = await publicSheet();
    expect(sheet.roster[0].playerName).toBe('Ada Lovelace');
    expect(sheet.roster[0].imageURL).toMatch(
      new RegExp(`^/apps/sagan/api/rosters/${publishedAsKey}/players/[\\w-]+/photo`),
    );
  });

  it('initials only and hidden photos: the anonymous response never carries them, live too', async () => {
    const ws = await TestSocket.open(await wsUrl());
    const topic = `roster:${publishedAsKey}`;
    try {
      ws.send({ type: 'subscribe', topic });
      expect((await ws.waitFor(isState(topic))).data).toMatchObject({
        roster: [{ playerName: 'Ada Lovelace' }],
      });
      const from = ws.messages.length;
      const res = await t.users.Coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/privacy`,
        payload: { initialsOnly: true, hidePhotos: true },
      });
      // A client that leaves hideNotes out keeps the team's choice.
      expect(res.json()).toEqual({ initialsOnly: true, hidePhotos: true, hideNotes: true });
      const text = JSON.stringify(await publicSheet());
      expect(text).not.toContain('Ada');
      expect(text).not.toContain('Lovelace');
      expect(text).not.toContain('/photo');
      expect((await publicSheet()).roster[0]).toMatchObject({
        playerName: 'A. L.',
        imageURL: '',
        jersey: '7',
      });
      // The privacy change's own frame: one of an earlier write, announced late, may come first.
      const live = await ws.stateShowing<{ roster: { playerName: string }[] }>(
        topic,
        (sheet) => sheet.roster[0]?.playerName === 'A. L.',
        from,
      );
      expect(live.data).toMatchObject({ roster: [{ playerName: 'A. L.', imageURL: '' }] });
      expect(JSON.stringify(live)).not.toContain('Lovelace');
    } finally {
      ws.close();
    }
    // The owner's own sheet still has everything.
    const mine = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json();
    expect(mine.roster[0].playerName).toBe('Ada Lovelace');
  });

  it('notes stay off the public sheet, live topic and share preview unless the owner shows them', async () => {
    const notes = 'Allergic to peanuts — EpiPen';
    const mine = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json();
    const ada = mine.roster[0];
    await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${ada.key}`,
      payload: { jersey: ada.jersey, playerName: ada.playerName, playerNotes: notes },
    });
    const ws = await TestSocket.open(await wsUrl());
    const topic = `roster:${publishedAsKey}`;
    try {
      ws.send({ type: 'subscribe', topic });
      const first = await ws.waitFor(isState(topic));
      expect(first.data).toMatchObject({ roster: [{ playerNotes: '' }] });
      expect(JSON.stringify(first)).not.toContain('EpiPen');
      expect(JSON.stringify(await publicSheet())).not.toContain('EpiPen');
      const page = await anonymous(t.app)({
        method: 'GET',
        url: `/apps/sagan/teamsheets/${publishedAsKey}/${ada.key}`,
      });
      expect(page.body).not.toContain('EpiPen');

      const from = ws.messages.length;
      const res = await t.users.Coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/privacy`,
        payload: { initialsOnly: true, hidePhotos: true, hideNotes: false },
      });
      expect(res.json()).toMatchObject({ hideNotes: false });
      // The frame that shows the notes: an earlier frame can still come first (the notes'
      // write announced after the subscribe, or a subscribe answered from a kept frame).
      const shown = await ws.stateShowing<{ roster: { playerNotes: string }[] } | null>(
        topic,
        (d) => d?.roster[0]?.playerNotes === notes,
        from,
      );
      expect(shown.data).toMatchObject({ roster: [{ playerNotes: notes }] });
      expect((await publicSheet()).roster[0].playerNotes).toBe(notes);
    } finally {
      ws.close();
    }
    await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: true, hidePhotos: true, hideNotes: true },
    });
    expect(JSON.stringify(await publicSheet())).not.toContain('EpiPen');
  });

  it('only the owner may read or change the choice', async () => {
    const anon = anonymous(t.app);
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
    const res = await t.users.Stranger.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: false, hidePhotos: false },
    });
    expect(res.statusCode).toBe(404);
    expect((await publicSheet()).roster[0].playerName).toBe('A. L.');
    const bad = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
