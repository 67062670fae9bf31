import { beforeAll, describe, expect, it } from 'vitest';
import { anonymous, API, databaseKinds, useTestApp } from './helpers.ts';
import type { TeamSheet, TeamsList } from '@sagan/shared/teamsheet-schemas';

describe.each(databaseKinds())('team sheets on $name', (kind) => {
  let teamKey: string;

  const t = useTestApp(kind, { users: ['Owner', 'Stranger'] });
  beforeAll(async () => {
    const res = await t.users.Owner.request({ method: 'POST', url: `${API}/teams` });
    expect(res.statusCode).toBe(201);
    teamKey = res.json<{ teamKey: string }>().teamKey;
  });

  const sheet = async (): Promise<TeamSheet> => {
    const res = await t.users.Owner.request({
      method: 'GET',
      url: `${API}/teams/${teamKey}`,
    });
    expect(res.statusCode).toBe(200);
    return res.json<TeamSheet>();
  };

  it('creates a team named New Team / Description, unpublished, listed under My Teams', async () => {
    const s = await sheet();
    expect(s).toMatchObject({
      teamName: 'New Team',
      teamNotes: 'Description',
      publishedAsKey: '',
      roster: [],
      groups: [],
    });
    const list = (
      await t.users.Owner.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>();
    expect(list.mine.map((t) => t.teamKey)).toContain(teamKey);
    const theirs = (
      await t.users.Stranger.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>();
    expect(theirs.mine).toEqual([]);
  });

  it('renames the team and validates the name', async () => {
    const res = await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: 'Hawks U12', teamNotes: 'Saturday league' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ teamName: 'Hawks U12', teamNotes: 'Saturday league' });
    const bad = await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: '   ', teamNotes: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/Team name is required/);
    expect((await sheet()).teamName).toBe('Hawks U12');
  });

  it('creates a player with key -1, edits it, refuses invalid jerseys and names', async () => {
    const created = await t.users.Owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/-1`,
      payload: { jersey: '7', playerName: 'Ann Lee', playerNotes: 'Left foot' },
    });
    expect(created.statusCode).toBe(200);
    const player = created.json<{ key: string }>();
    expect(player.key).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const edited = await t.users.Owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${player.key}`,
      payload: { jersey: 'GK', playerName: 'Ann Lee', playerNotes: '' },
    });
    expect(edited.json()).toMatchObject({ key: player.key, jersey: 'GK' });
    for (const payload of [
      { jersey: '', playerName: 'X' },
      { jersey: '1', playerName: '' },
      { jersey: '#1', playerName: 'X' },
      { jersey: 1, playerName: 'X' },
    ]) {
      const r = await t.users.Owner.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/-1`,
        payload,
      });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const missing = await t.users.Owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/nosuchplayer`,
      payload: { jersey: '1', playerName: 'X' },
    });
    expect(missing.statusCode).toBe(404);
    expect((await sheet()).roster).toHaveLength(1);
  });

  it('bulk uploads, skipping blank lines, and refuses a line without a name', async () => {
    const bad = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/players/bulk`,
      payload: { text: '1 Ann\n2\n3 Cy' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toBe('Line 2: Missing name');
    expect((await sheet()).roster).toHaveLength(1);
    const res = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/players/bulk`,
      payload: { text: '10 Bo Diaz\n\n2\tCy  Ng\r\n  \n33 Di Ott\n' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 3 });
    const names = (await sheet()).roster.map((p) => `${p.jersey} ${p.playerName}`).sort();
    expect(names).toEqual(['10 Bo Diaz', '2 Cy Ng', '33 Di Ott', 'GK Ann Lee']);
  });

  it('groups: create, rename, set locations; membership codes are validated', async () => {
    const g = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/groups`,
      payload: { groupName: 'Lineup 1' },
    });
    expect(g.statusCode).toBe(201);
    const { groupKey } = g.json<{ groupKey: string }>();
    const renamed = await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}/groups/${groupKey}`,
      payload: { groupName: 'Lineup A' },
    });
    expect(renamed.json()).toMatchObject({ groupName: 'Lineup A', key: groupKey });
    const playerKey = (await sheet()).roster[0]!.key;
    for (const location of [2, 1, 3]) {
      const r = await t.users.Owner.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/groups/${groupKey}/members/${playerKey}`,
        payload: { location },
      });
      expect(r.statusCode).toBe(200);
      expect((await sheet()).groupMembership[groupKey]?.[playerKey]).toEqual({
        location,
        playerKey,
      });
    }
    const bad = await t.users.Owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/groups/${groupKey}/members/${playerKey}`,
      payload: { location: 7 },
    });
    expect(bad.statusCode).toBe(400);
    const noPlayer = await t.users.Owner.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/groups/${groupKey}/members/nobody`,
      payload: { location: 1 },
    });
    expect(noPlayer.statusCode).toBe(404);
    const emptyName = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/groups`,
      payload: { groupName: ' ' },
    });
    expect(emptyName.statusCode).toBe(400);
  });

  it('publishes, reuses the key on republish, unpublishes, and republishes to the same key', async () => {
    const anon = anonymous(t.app);
    const first = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(first.statusCode).toBe(200);
    const { publishedAsKey, url } = first.json<{ publishedAsKey: string; url: string }>();
    expect(url).toBe(`http://localhost:80/apps/sagan/teamsheets/${publishedAsKey}`);
    expect((await sheet()).publishedAsKey).toBe(publishedAsKey);

    const pub = await anon({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` });
    expect(pub.statusCode).toBe(200);
    expect(pub.headers['x-robots-tag']).toBe('noindex');
    const body = pub.json<{ teamName: string; roster: unknown[]; followed: unknown }>();
    expect(body).toMatchObject({ teamName: 'Hawks U12', followed: null });
    expect(body.roster).toHaveLength(4);
    expect(JSON.stringify(body)).not.toContain(t.users.Owner.uid);

    // DESIGN §8: the public copy follows the owner's edits at once, without a new publish.
    await t.users.Owner.request({
      method: 'PATCH',
      url: `${API}/teams/${teamKey}`,
      payload: { teamName: 'Hawks U13', teamNotes: '' },
    });
    expect(
      (await anon({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })).json<{
        teamName: string;
      }>().teamName,
    ).toBe('Hawks U13');
    const again = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(again.json<{ publishedAsKey: string }>().publishedAsKey).toBe(publishedAsKey);
    expect(
      (await anon({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })).json<{
        teamName: string;
      }>().teamName,
    ).toBe('Hawks U13');

    const qr = await anon({ method: 'GET', url: `${API}/rosters/${publishedAsKey}/qr.png` });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect(qr.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    const off = await t.users.Owner.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(off.statusCode).toBe(200);
    expect(
      (await anon({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })).statusCode,
    ).toBe(404);
    expect(
      (await anon({ method: 'GET', url: `${API}/rosters/${publishedAsKey}/qr.png` })).statusCode,
    ).toBe(404);
    expect((await sheet()).publishedAsKey).toBe('');
    const list = (
      await t.users.Owner.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>();
    expect(list.mine.find((t) => t.teamKey === teamKey)?.publishedAsKey).toBe('');

    const back = await t.users.Owner.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(back.json<{ publishedAsKey: string }>().publishedAsKey).toBe(publishedAsKey);
  });

  it('follows and unfollows a published sheet; an unknown key cannot be followed', async () => {
    const { publishedAsKey } = await sheet();
    const put = await t.users.Stranger.request({
      method: 'PUT',
      url: `${API}/me/favorite-rosters/${publishedAsKey}`,
    });
    expect(put.statusCode).toBe(200);
    let list = (
      await t.users.Stranger.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>();
    expect(list.following).toEqual([{ publishedAsKey, teamName: 'Hawks U13' }]);
    const pub = await t.users.Stranger.request({
      method: 'GET',
      url: `${API}/rosters/${publishedAsKey}`,
    });
    expect(pub.json<{ followed: boolean }>().followed).toBe(true);
    await t.users.Stranger.request({
      method: 'DELETE',
      url: `${API}/me/favorite-rosters/${publishedAsKey}`,
    });
    list = (
      await t.users.Stranger.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>();
    expect(list.following).toEqual([]);
    const unknown = await t.users.Stranger.request({
      method: 'PUT',
      url: `${API}/me/favorite-rosters/nosuchsheet`,
    });
    expect(unknown.statusCode).toBe(404);
    const anon = await anonymous(t.app)({
      method: 'PUT',
      url: `${API}/me/favorite-rosters/${publishedAsKey}`,
    });
    expect(anon.statusCode).toBe(401);
  });

  describe('only the owner', () => {
    const privateCalls = (key: string, groupKey: string, playerKey: string) => [
      { method: 'GET' as const, url: `${API}/teams/${key}` },
      {
        method: 'PATCH' as const,
        url: `${API}/teams/${key}`,
        payload: { teamName: 'Stolen', teamNotes: '' },
      },
      { method: 'POST' as const, url: `${API}/teams/${key}/publish` },
      { method: 'DELETE' as const, url: `${API}/teams/${key}/publish` },
      {
        method: 'PUT' as const,
        url: `${API}/teams/${key}/players/-1`,
        payload: { jersey: '9', playerName: 'Intruder' },
      },
      {
        method: 'PUT' as const,
        url: `${API}/teams/${key}/players/${playerKey}`,
        payload: { jersey: '9', playerName: 'Intruder' },
      },
      { method: 'DELETE' as const, url: `${API}/teams/${key}/players/${playerKey}` },
      {
        method: 'POST' as const,
        url: `${API}/teams/${key}/players/bulk`,
        payload: { text: '1 Intruder' },
      },
      {
        method: 'PUT' as const,
        url: `${API}/teams/${key}/players/${playerKey}/photo`,
        payload: { dataUrl: 'data:image/png;base64,AAAA' },
      },
      {
        method: 'POST' as const,
        url: `${API}/teams/${key}/groups`,
        payload: { groupName: 'Intruders' },
      },
      {
        method: 'PATCH' as const,
        url: `${API}/teams/${key}/groups/${groupKey}`,
        payload: { groupName: 'Intruders' },
      },
      {
        method: 'PUT' as const,
        url: `${API}/teams/${key}/groups/${groupKey}/members/${playerKey}`,
        payload: { location: 1 },
      },
    ];

    it('anonymous gets 401 and another user 404 on every private call; nothing changes', async () => {
      const before = await sheet();
      const groupKey = before.groups[0]!.groupKey;
      const playerKey = before.roster[0]!.key;
      const anon = anonymous(t.app);
      for (const call of privateCalls(teamKey, groupKey, playerKey)) {
        expect((await anon(call)).statusCode, `anon ${call.method} ${call.url}`).toBe(401);
        const r = await t.users.Stranger.request(call);
        expect([403, 404], `other ${call.method} ${call.url}`).toContain(r.statusCode);
      }
      expect(await sheet()).toEqual(before);
      expect((await anon({ method: 'GET', url: `${API}/teams` })).statusCode).toBe(401);
      expect((await anon({ method: 'POST', url: `${API}/teams` })).statusCode).toBe(401);
    });

    it('ignores a uid in a body: the owner is the signed-in user', async () => {
      const res = await t.users.Stranger.request({
        method: 'PATCH',
        url: `${API}/teams/${teamKey}`,
        payload: { teamName: 'Mine now', teamNotes: '', uid: t.users.Stranger.uid },
      });
      expect(res.statusCode).toBe(404);
      expect((await sheet()).teamName).toBe('Hawks U13');
    });

    it('refuses a cross-site write without the CSRF header', async () => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${API}/teams/${teamKey}`,
        headers: { cookie: t.users.Owner.cookie },
        payload: { teamName: 'CSRF', teamNotes: '' },
      });
      expect(res.statusCode).toBe(403);
      expect((await sheet()).teamName).toBe('Hawks U13');
    });
  });

  it('deletes a player and their memberships', async () => {
    const before = await sheet();
    const groupKey = before.groups[0]!.groupKey;
    const playerKey = Object.keys(before.groupMembership[groupKey] ?? {})[0]!;
    const res = await t.users.Owner.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/players/${playerKey}`,
    });
    expect(res.statusCode).toBe(200);
    const after = await sheet();
    expect(after.roster.map((p) => p.key)).not.toContain(playerKey);
    expect(after.groupMembership[groupKey]).toEqual({});
    const again = await t.users.Owner.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/players/${playerKey}`,
    });
    expect(again.statusCode).toBe(404);
  });

  it('bad keys in the path are a 400, never a 500', async () => {
    const res = await t.users.Owner.request({
      method: 'GET',
      url: `${API}/teams/${'x'.repeat(65)}`,
    });
    expect(res.statusCode).toBe(400);
    const dot = await t.users.Owner.request({ method: 'GET', url: `${API}/rosters/a.b` });
    expect(dot.statusCode).toBe(400);
  });
});
