import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Player, TeamSheet, TeamsList } from '@sagan/shared/teamsheet-schemas';
import { anonymous, API, databaseKinds, type TestUser, useTempDir, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

const jpegDataUrl = async () =>
  `data:image/jpeg;base64,${(
    await sharp({ create: { width: 30, height: 20, channels: 3, background: '#08f' } })
      .jpeg()
      .toBuffer()
  ).toString('base64')}`;
/** What the user picked: a text file renamed to .png. */
const fakePngDataUrl = `data:image/png;base64,${Buffer.from('not a picture at all').toString('base64')}`;

describe.each(databaseKinds())('team sheet saves, live public copy, deletion on $name', (kind) => {
  const dataDir = useTempDir('sagan-sheets-');
  const t = useTestApp(kind, () => ({
    users: ['Coach', 'Fan', 'Stranger'],
    config: { dataDir: dataDir() },
    listen: true,
  }));
  const photoFiles = () => {
    try {
      return fs.readdirSync(path.join(dataDir(), 'photos'));
    } catch {
      return [];
    }
  };

  const newTeam = async (who: TestUser = t.users.Coach, createKey?: string) => {
    const res = await who.request({
      method: 'POST',
      url: `${API}/teams`,
      ...(createKey ? { payload: { createKey } } : {}),
    });
    expect([200, 201]).toContain(res.statusCode);
    return res.json<{ teamKey: string }>().teamKey;
  };
  const sheetOf = async (teamKey: string) =>
    (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json<TeamSheet>();
  const savePlayer = (teamKey: string, payload: object, playerKey = '-1') =>
    t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/${playerKey}`,
      payload,
    });

  it('a save with a file that is not a picture saves nothing; the retry makes one player', async () => {
    const teamKey = await newTeam();
    const files = photoFiles().length;
    const player = { jersey: '9', playerName: 'Nia Photo', createKey: 'form-1' };
    const bad = await savePlayer(teamKey, { ...player, dataUrl: fakePngDataUrl });
    expect(bad.statusCode).toBe(415);
    expect(bad.json<{ error: string }>().error).toMatch(/picture/);
    expect((await sheetOf(teamKey)).roster).toEqual([]);
    expect(photoFiles()).toHaveLength(files);

    const good = await savePlayer(teamKey, { ...player, dataUrl: await jpegDataUrl() });
    expect(good.statusCode).toBe(200);
    const saved = good.json<Player>();
    expect(saved.imageURL).toMatch(/\/photo\?v=/);
    // A second click on Save (or a retry after a lost answer) with the same form's key.
    const again = await savePlayer(teamKey, { ...player, dataUrl: await jpegDataUrl() });
    expect(again.json<Player>().key).toBe(saved.key);
    const roster = (await sheetOf(teamKey)).roster;
    expect(roster.map((p) => p.playerName)).toEqual(['Nia Photo']);
    expect(photoFiles()).toHaveLength(files + 1);
  });

  it('the same createKey twice, even at once, makes one team, one group and one bulk upload', async () => {
    const before = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>().mine.length;
    const [a, b] = await Promise.all([
      newTeam(t.users.Coach, 'dbl-click'),
      newTeam(t.users.Coach, 'dbl-click'),
    ]);
    expect(a).toBe(b);
    const list = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams` })
    ).json<TeamsList>();
    expect(list.mine).toHaveLength(before + 1);
    // Another user's identical key is theirs alone.
    expect(await newTeam(t.users.Fan, 'dbl-click')).not.toBe(a);

    const group = () =>
      t.users.Coach.request({
        method: 'POST',
        url: `${API}/teams/${a}/groups`,
        payload: { groupName: 'Offense', createKey: 'g-1' },
      });
    const [g1, g2] = await Promise.all([group(), group()]);
    expect(g1.json<{ groupKey: string }>().groupKey).toBe(g2.json<{ groupKey: string }>().groupKey);
    const bulk = () =>
      t.users.Coach.request({
        method: 'POST',
        url: `${API}/teams/${a}/players/bulk`,
        payload: { text: '1 Ann\n2 Bo', createKey: 'bulk-1' },
      });
    await Promise.all([bulk(), bulk()]);
    const s = await sheetOf(a);
    expect(s.groups).toHaveLength(1);
    expect(s.roster.map((p) => p.playerName).sort()).toEqual(['Ann', 'Bo']);
  });

  it('keeps accented letters, NFC-normalised, from the form and from bulk upload', async () => {
    const teamKey = await newTeam();
    const res = await savePlayer(teamKey, { jersey: '5', playerName: 'Chloe\u0301 Zoe\u0308' });
    expect(res.json<Player>().playerName).toBe('Chlo\u00e9 Zo\u00eb');
    const bulk = await t.users.Coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/players/bulk`,
      payload: { text: '8 Chloé\n9\tÑandú Pérez\n10 अनु' },
    });
    expect(bulk.statusCode).toBe(200);
    expect((await sheetOf(teamKey)).roster.map((p) => p.playerName).sort()).toEqual(
      ['Chlo\u00e9', 'Chlo\u00e9 Zo\u00eb', 'Ñandú Pérez', 'अनु'].sort(),
    );
  });

  it('tags keep accents and match Unicode case-insensitively', async () => {
    const game = await t.users.Coach.request({ method: 'POST', url: `${API}/games`, payload: {} });
    const { gameKey } = game.json<{ gameKey: string }>();
    const res = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/tags`,
      // "émoji" typed with a combining accent, then in capitals: one tag.
      payload: { tags: ['e\u0301moji', 'ÉMOJI', 'Straße', 'STRASSE'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ tags: { name: string }[] }>().tags.map((x) => x.name)).toEqual([
      '\u00e9moji',
      'Straße',
    ]);
  });

  it('a published sheet follows every edit at once, live, without publishing again', async () => {
    const teamKey = await newTeam();
    const pub = await t.users.Coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    const { publishedAsKey } = pub.json<{ publishedAsKey: string }>();
    const topic = `roster:${publishedAsKey}`;
    const viewer = await TestSocket.open(t.wsUrl);
    type Pub = { teamName: string; roster: Player[]; groups: { groupName: string }[] } | null;
    /** The sheet a viewer sees once the write lands, shown as `shows` says it should be. */
    const next = async (write: () => Promise<unknown>, shows: (sheet: Pub) => boolean) => {
      const from = viewer.messages.length;
      await write();
      return (await viewer.stateShowing(topic, shows, from)).data;
    };
    try {
      await viewer.subscribe(topic);
      let seen = await next(
        () => savePlayer(teamKey, { jersey: '3', playerName: 'Live Lia', playerNotes: '' }),
        (sheet) => sheet?.roster.length === 1,
      );
      expect(seen?.roster.map((p) => p.playerName)).toEqual(['Live Lia']);
      const lia = seen!.roster[0]!;
      const jpeg = Buffer.from((await jpegDataUrl()).split(',')[1]!, 'base64');
      const photoURL = new RegExp(
        `^/apps/sagan/api/rosters/${publishedAsKey}/players/${lia.key}/photo`,
      );
      seen = await next(
        () =>
          t.users.Coach.request({
            method: 'PUT',
            url: `${API}/teams/${teamKey}/players/${lia.key}/photo`,
            headers: { 'content-type': 'image/jpeg' },
            payload: jpeg,
          }),
        (sheet) => photoURL.test(sheet?.roster[0]?.imageURL ?? ''),
      );
      expect(seen?.roster[0]?.imageURL).toMatch(photoURL);
      // The last state carries the photo, named through the public sheet.
      await expect
        .poll(
          async () =>
            (
              await anonymous(t.app)({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` })
            ).json<{ roster: Player[] }>().roster[0]?.imageURL,
        )
        .toMatch(new RegExp(`^/apps/sagan/api/rosters/${publishedAsKey}/players/`));
      seen = await next(
        () =>
          t.users.Coach.request({
            method: 'POST',
            url: `${API}/teams/${teamKey}/groups`,
            payload: { groupName: 'Starters' },
          }),
        (sheet) => !!sheet?.groups.length,
      );
      expect(seen?.groups.map((g) => g.groupName)).toEqual(['Starters']);
      seen = await next(
        () =>
          t.users.Coach.request({
            method: 'PATCH',
            url: `${API}/teams/${teamKey}`,
            payload: { teamName: 'Renamed Live', teamNotes: '' },
          }),
        (sheet) => sheet?.teamName === 'Renamed Live',
      );
      expect(seen?.teamName).toBe('Renamed Live');
      seen = await next(
        () =>
          t.users.Coach.request({
            method: 'DELETE',
            url: `${API}/teams/${teamKey}/players/${lia.key}`,
          }),
        (sheet) => sheet?.roster.length === 0,
      );
      expect(seen?.roster).toEqual([]);
      expect(
        await next(
          () => t.users.Coach.request({ method: 'DELETE', url: `${API}/teams/${teamKey}/publish` }),
          (sheet) => sheet === null,
        ),
      ).toBeNull();
      // An edit while unpublished publishes nothing.
      await savePlayer(teamKey, { jersey: '4', playerName: 'Hidden Hal' });
      expect(
        (await anonymous(t.app)({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` }))
          .statusCode,
      ).toBe(404);
      const again = await next(
        () => t.users.Coach.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` }),
        (sheet) => sheet !== null,
      );
      expect(again?.roster.map((p) => p.playerName)).toEqual(['Hidden Hal']);
    } finally {
      viewer.close();
    }
    const republished = (await sheetOf(teamKey)).publishedAsKey;
    expect(republished).toBe(publishedAsKey);
  });

  it('deleting a team removes its sheet, public link, photos and followers’ entries', async () => {
    const teamKey = await newTeam();
    const files = photoFiles().length;
    const p = await savePlayer(teamKey, {
      jersey: '1',
      playerName: 'Gone Gil',
      dataUrl: await jpegDataUrl(),
    });
    expect(p.statusCode).toBe(200);
    expect(photoFiles()).toHaveLength(files + 1);
    const { publishedAsKey } = (
      await t.users.Coach.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` })
    ).json<{ publishedAsKey: string }>();
    await t.users.Fan.request({
      method: 'PUT',
      url: `${API}/me/favorite-rosters/${publishedAsKey}`,
    });
    const fanList = async () =>
      (await t.users.Fan.request({ method: 'GET', url: `${API}/teams` })).json<TeamsList>();
    expect((await fanList()).following.map((f) => f.publishedAsKey)).toContain(publishedAsKey);

    const del = (who: TestUser) =>
      who.request({ method: 'DELETE', url: `${API}/teams/${teamKey}` });
    expect(
      (await anonymous(t.app)({ method: 'DELETE', url: `${API}/teams/${teamKey}` })).statusCode,
    ).toBe(401);
    expect((await del(t.users.Stranger)).statusCode).toBe(404);
    expect((await sheetOf(teamKey)).roster).toHaveLength(1);

    const viewer = await TestSocket.open(t.wsUrl);
    const topic = `roster:${publishedAsKey}`;
    try {
      await viewer.subscribe(topic);
      expect((await del(t.users.Coach)).statusCode).toBe(200);
      await viewer.stateShowing(topic, (sheet) => sheet === null);
    } finally {
      viewer.close();
    }
    expect(
      (await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })).statusCode,
    ).toBe(404);
    expect(
      (await anonymous(t.app)({ method: 'GET', url: `${API}/rosters/${publishedAsKey}` }))
        .statusCode,
    ).toBe(404);
    expect(photoFiles()).toHaveLength(files);
    expect((await fanList()).following.map((f) => f.publishedAsKey)).not.toContain(publishedAsKey);
    const rows = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM players WHERE team_key = $1)::int
            + (SELECT count(*) FROM favorite_rosters WHERE published_as_key = $2)::int
            + (SELECT count(*) FROM rosters WHERE team_key = $1)::int AS n`,
      [teamKey, publishedAsKey],
    );
    expect(rows[0]?.n).toBe(0);
    expect((await del(t.users.Coach)).statusCode).toBe(404);
  });
});
