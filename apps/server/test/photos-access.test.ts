import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { Player, PublicRoster, TeamSheet } from '@sagan/shared/teamsheet-schemas';
import type { PlayCountGame } from '@sagan/shared/playcount';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import {
  anonymous,
  API,
  databaseKinds,
  newTeamOf,
  signInLocal,
  type TestUser,
  useTempDir,
  useTestApp,
} from './helpers.ts';
import { newGameKey, sampleGame } from './playcounts-fixtures.ts';

const jpeg = (background: string) =>
  sharp({ create: { width: 12, height: 12, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** A photo that is not (or no longer) there: a 404 no cache may keep. */
function expectGone(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, what).toBe(404);
  expect(res.headers['cache-control'], what).toBe('no-store');
  expect(res.headers['content-type'], what).not.toBe('image/jpeg');
}

/** The removed by-file-name route: no such route at all. */
function expectNoRoute(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, what).toBe(404);
  expect(res.headers['content-type'], what).not.toBe('image/jpeg');
}

function expectPhoto(res: LightMyRequestResponse, what: string, visibility: string) {
  expect(res.statusCode, what).toBe(200);
  expect(res.headers['content-type'], what).toBe('image/jpeg');
  expect(res.headers['cache-control'], what).toBe(`${visibility}, no-cache`);
  expect(res.headers['etag'], what).toMatch(/^"[\w-]+"$/);
}

describe.each(databaseKinds())('who may see a player photo, on $name', (kind) => {
  const dataDir = useTempDir('sagan-photo-access-');
  let teamKey: string;
  let playerKey: string;
  const anon = () => anonymous(t.app);
  const photoDir = () => path.join(dataDir(), 'photos');

  async function addPlayer(who: TestUser, team: string, name: string): Promise<string> {
    const res = await who.request({
      method: 'PUT',
      url: `${API}/teams/${team}/players/-1`,
      payload: { jersey: '9', playerName: name },
    });
    return res.json<Player>().key;
  }
  async function upload(who: TestUser, team: string, player: string, color = '#36c') {
    const res = await who.request({
      method: 'PUT',
      url: `${API}/teams/${team}/players/${player}/photo`,
      headers: { 'content-type': 'image/jpeg' },
      payload: await jpeg(color),
    });
    expect(res.statusCode).toBe(200);
    return res.json<Player>();
  }
  const publish = async () =>
    (
      await t.users.Coach.request({
        method: 'POST',
        url: `${API}/teams/${teamKey}/publish`,
      })
    ).json<{
      publishedAsKey: string;
    }>().publishedAsKey;
  const publicSheet = async (key: string) =>
    (await anon()({ method: 'GET', url: `${API}/rosters/${key}` })).json<PublicRoster>();
  const setPrivacy = (hidePhotos: boolean) =>
    t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: false, hidePhotos },
    });

  const t = useTestApp(kind, () => ({
    users: ['Coach', 'Stranger'],
    config: { dataDir: dataDir() },
  }));
  beforeAll(async () => {
    teamKey = await newTeamOf(t.users.Coach);
    playerKey = await addPlayer(t.users.Coach, teamKey, 'Kid One');
    await upload(t.users.Coach, teamKey, playerKey);
  });

  it('a sheet never published: the stored file is reachable by no URL but the owner path', async () => {
    const [file] = fs.readdirSync(photoDir());
    expect(file).toMatch(/\.jpg$/);
    expectNoRoute(await anon()({ method: 'GET', url: `${API}/photos/${file}` }), 'by file name');
    const id = file!.replace(/\.jpg$/, '');
    for (const url of [
      `${API}/rosters/${id}/players/${playerKey}/photo`,
      `${API}/rosters/${teamKey}/players/${playerKey}/photo`,
    ]) {
      expectGone(await anon()({ method: 'GET', url }), url);
    }
    const sheet = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json<TeamSheet>();
    const own = sheet.roster[0]!.imageURL;
    expect(own).not.toContain(id);
    expectPhoto(await t.users.Coach.request({ method: 'GET', url: own }), 'owner', 'private');
    expect((await anon()({ method: 'GET', url: own })).statusCode).toBe(401);
    expect((await t.users.Stranger.request({ method: 'GET', url: own })).statusCode).toBe(404);
  });

  it('published: public with revalidation (ETag, 304); unpublished: 404 on the next request', async () => {
    const key = await publish();
    const url = (await publicSheet(key)).roster[0]!.imageURL;
    expect(url).toMatch(new RegExp(`^${API}/rosters/${key}/players/${playerKey}/photo`));
    const first = await anon()({ method: 'GET', url });
    expectPhoto(first, 'published', 'public');
    expect(first.headers['cache-control']).not.toMatch(/immutable|max-age/);
    const again = await anon()({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(first.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    await t.users.Coach.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expectGone(await anon()({ method: 'GET', url }), 'after unpublish');
    expectGone(
      await anon()({
        method: 'GET',
        url,
        headers: { 'if-none-match': String(first.headers['etag']) },
      }),
      'after unpublish, revalidating',
    );
    expect(await publish()).toBe(key);
    expectPhoto(await anon()({ method: 'GET', url }), 'republished', 'public');
  });

  it('hidePhotos: the public path answers 404 at once, and again 200 when shown', async () => {
    const key = await publish();
    const url = `${API}/rosters/${key}/players/${playerKey}/photo`;
    expect((await setPrivacy(true)).statusCode).toBe(200);
    expectGone(await anon()({ method: 'GET', url }), 'hidden');
    expect((await publicSheet(key)).roster[0]!.imageURL).toBe('');
    // The owner still sees their own photo.
    const own = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json<TeamSheet>().roster[0]!.imageURL;
    expectPhoto(
      await t.users.Coach.request({ method: 'GET', url: own }),
      'owner while hidden',
      'private',
    );
    await setPrivacy(false);
    expectPhoto(await anon()({ method: 'GET', url }), 'shown again', 'public');
  });

  it('a new photo changes the ETag; the old one is deleted from disk', async () => {
    const key = await publish();
    const url = `${API}/rosters/${key}/players/${playerKey}/photo`;
    const before = await anon()({ method: 'GET', url });
    const files = fs.readdirSync(photoDir());
    const saved = await upload(t.users.Coach, teamKey, playerKey, '#c63');
    const after = await anon()({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(before.headers['etag']) },
    });
    expectPhoto(after, 'new photo', 'public');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    const now = fs.readdirSync(photoDir());
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(files);
    expect(saved.imageURL).toMatch(/\?v=\w+$/);
  });

  it('a deleted player: 404 on every path, and the file is gone', async () => {
    const doomed = await addPlayer(t.users.Coach, teamKey, 'Kid Two');
    await upload(t.users.Coach, teamKey, doomed, '#393');
    const key = await publish();
    const pub = `${API}/rosters/${key}/players/${doomed}/photo`;
    const own = `${API}/teams/${teamKey}/players/${doomed}/photo`;
    expectPhoto(await anon()({ method: 'GET', url: pub }), 'before', 'public');
    expect(fs.readdirSync(photoDir())).toHaveLength(2);
    await t.users.Coach.request({
      method: 'DELETE',
      url: `${API}/teams/${teamKey}/players/${doomed}`,
    });
    // DESIGN §8: the public copy drops the player at once; the photo route checks live state too.
    expect((await publicSheet(key)).roster.some((p) => p.key === doomed)).toBe(false);
    expectGone(await anon()({ method: 'GET', url: pub }), 'public after delete');
    expectGone(await t.users.Coach.request({ method: 'GET', url: own }), 'owner after delete');
    expect(fs.readdirSync(photoDir())).toHaveLength(1);
  });

  it("another user's sheet or play count pointing at someone else's photo gets nothing", async () => {
    const [file] = fs.readdirSync(photoDir());
    const id = file!.replace(/\.jpg$/, '');
    const key = await publish();
    const theirTeam = await newTeamOf(t.users.Stranger);
    const theirPlayer = await addPlayer(t.users.Stranger, theirTeam, 'Pasted');
    // What an import of someone's old URL leaves behind.
    await t.db.query('UPDATE players SET image_url = $3 WHERE team_key = $1 AND player_key = $2', [
      theirTeam,
      theirPlayer,
      `${API}/photos/${file}`,
    ]);
    const theirKey = (
      await t.users.Stranger.request({
        method: 'POST',
        url: `${API}/teams/${theirTeam}/publish`,
      })
    ).json<{ publishedAsKey: string }>().publishedAsKey;
    for (const url of [
      `${API}/rosters/${theirKey}/players/${theirPlayer}/photo`,
      `${API}/rosters/${theirKey}/players/${playerKey}/photo`,
    ]) {
      expectGone(await anon()({ method: 'GET', url }), url);
    }
    expectNoRoute(await anon()({ method: 'GET', url: `${API}/photos/${file}` }), 'by name');
    expectGone(
      await t.users.Stranger.request({
        method: 'GET',
        url: `${API}/teams/${theirTeam}/players/${theirPlayer}/photo`,
      }),
      'their owner path',
    );
    expect(
      (
        await t.users.Stranger.request({
          method: 'GET',
          url: `${API}/teams/${teamKey}/players/${playerKey}/photo`,
        })
      ).statusCode,
    ).toBe(404);

    // A play count naming the coach's photo by every form of URL: the stranger gets nothing.
    const gameKey = newGameKey();
    const refs = [
      `${API}/photos/${id}.jpg`,
      `${API}/teams/${teamKey}/players/${playerKey}/photo`,
      `${API}/playcounts/${gameKey}/players/p1/photo`,
    ];
    for (const imageURL of refs) {
      const put = await t.users.Stranger.request({
        method: 'PUT',
        url: `${API}/playcounts/${gameKey}`,
        payload: sampleGame({
          roster: [
            { key: 'p1', jersey: '1', playerName: 'X', playCount: 0, location: 1, imageURL },
          ],
        }),
      });
      expect(put.statusCode).toBeLessThan(300);
      expectGone(
        await t.users.Stranger.request({
          method: 'GET',
          url: `${API}/playcounts/${gameKey}/players/p1/photo`,
        }),
        imageURL,
      );
    }
    // Through the coach's published sheet it is what anyone may see, so that is allowed.
    await t.users.Stranger.request({
      method: 'PUT',
      url: `${API}/playcounts/${gameKey}`,
      payload: sampleGame({
        roster: [
          {
            key: 'p1',
            jersey: '1',
            playerName: 'X',
            playCount: 0,
            location: 1,
            imageURL: `${API}/rosters/${key}/players/${playerKey}/photo`,
          },
        ],
      }),
    });
    const viaSheet = `${API}/playcounts/${gameKey}/players/p1/photo`;
    expectPhoto(
      await t.users.Stranger.request({ method: 'GET', url: viaSheet }),
      'via sheet',
      'private',
    );
    await setPrivacy(true);
    expectGone(
      await t.users.Stranger.request({ method: 'GET', url: viaSheet }),
      'via hidden sheet',
    );
    await setPrivacy(false);
  });

  it('play-count photos: for the play count owner only, and kept when the game is sent back', async () => {
    const own = (
      await t.users.Coach.request({ method: 'GET', url: `${API}/teams/${teamKey}` })
    ).json<TeamSheet>().roster[0]!.imageURL;
    const gameKey = newGameKey();
    const put = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/playcounts/${gameKey}`,
      payload: sampleGame({
        roster: [
          {
            key: playerKey,
            jersey: '9',
            playerName: 'Kid One',
            playCount: 0,
            location: 1,
            imageURL: own,
          },
          {
            key: 'p2',
            jersey: '2',
            playerName: 'Ext',
            playCount: 0,
            location: 2,
            imageURL: 'https://example.com/bo.jpg',
          },
        ],
      }),
    });
    expect(put.statusCode).toBe(201);
    const game = put.json<PlayCountGame>();
    const url = `${API}/playcounts/${gameKey}/players/${playerKey}/photo`;
    expect(game.roster.map((e) => e.imageURL)).toEqual([url, 'https://example.com/bo.jpg']);
    expectPhoto(await t.users.Coach.request({ method: 'GET', url }), 'play count owner', 'private');
    expect((await anon()({ method: 'GET', url })).statusCode).toBe(401);
    expectGone(await t.users.Stranger.request({ method: 'GET', url }), 'stranger');

    // The phone sends back what it read: the photo stays.
    const { gameName, gameDate, roster, snaps } = game;
    const back = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/playcounts/${gameKey}`,
      payload: { gameName, gameDate, roster, snaps },
    });
    expect(back.statusCode).toBe(200);
    expectPhoto(await t.users.Coach.request({ method: 'GET', url }), 'after re-send', 'private');
  });
});

describe.each(databaseKinds())('photo URLs stored before ids, migrated on $name', (kind) => {
  const dataDir = useTempDir('sagan-photo-migrate-');
  const OLD = '/apps/sagan/api/photos/';
  const files = { mine: 'MineMineMine0001', shared: 'SharedShared0002', stray: 'StrayStray000003' };

  /** The database and photo folder as the release before photo ids left them. */
  async function seedOldRelease(db: Db) {
    fs.mkdirSync(path.join(dataDir(), 'photos'));
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const id of Object.values(files)) {
      const file = path.join(dataDir(), 'photos', `${id}.jpg`);
      fs.writeFileSync(file, await jpeg('#999'));
      fs.utimesSync(file, hourAgo, hourAgo);
    }
    await migrate(db, { upTo: '0005_privacy' });
    const q = (sql: string, params: unknown[]) => db.query(sql, params);
    for (const uid of ['u-a', 'u-b']) await q('INSERT INTO users (uid) VALUES ($1)', [uid]);
    await q(
      `INSERT INTO teams (team_key, uid, team_name, published_as_key) VALUES ($1, $2, $3, $4)`,
      ['teamA', 'u-a', 'A', 'pubA'],
    );
    await q(`INSERT INTO teams (team_key, uid, team_name) VALUES ($1, $2, $3)`, [
      'teamB',
      'u-b',
      'B',
    ]);
    const player = (team: string, key: string, url: string) =>
      q(
        `INSERT INTO players (team_key, player_key, jersey, player_name, image_url)
         VALUES ($1, $2, '1', $2, $3)`,
        [team, key, url],
      );
    await player('teamA', 'a1', `${OLD}${files.mine}.jpg`);
    await player('teamA', 'a2', 'https://firebasestorage.example/p2.jpg');
    await player('teamA', 'a3', `${OLD}${files.shared}.jpg`);
    await player('teamB', 'b1', `${OLD}${files.shared}.jpg`);
    const sheet = {
      publishedAsKey: 'pubA',
      teamName: 'A',
      teamNotes: '',
      roster: [
        {
          key: 'a1',
          jersey: '1',
          playerName: 'a1',
          playerNotes: '',
          imageURL: `${OLD}${files.mine}.jpg`,
        },
        {
          key: 'a2',
          jersey: '1',
          playerName: 'a2',
          playerNotes: '',
          imageURL: 'https://firebasestorage.example/p2.jpg',
        },
      ],
      groups: [],
      groupMembership: {},
    };
    await q(
      `INSERT INTO rosters (published_as_key, team_key, uid, sheet) VALUES ($1, $2, $3, $4)`,
      ['pubA', 'teamA', 'u-a', JSON.stringify(sheet)],
    );
    const game = sampleGame({
      roster: [
        {
          key: 'a1',
          jersey: '1',
          playerName: 'a1',
          playCount: 0,
          location: 1,
          imageURL: `${OLD}${files.mine}.jpg`,
        },
      ],
    });
    await q(`INSERT INTO play_count_games (game_key, uid, game) VALUES ($1, $2, $3)`, [
      'gameA',
      'u-a',
      JSON.stringify({ ...game, snaps: [] }),
    ]);
    expect(await migrate(db)).toContain('0006_photos');
  }

  const t = useTestApp(kind, () => ({
    config: { dataDir: dataDir() },
    emptyDatabase: true,
    beforeBuild: seedOldRelease,
  }));

  const as = async (uid: string, url: string) => {
    // Local sign-in keys accounts by name: give the seeded uid a session the test can use.
    const user = await signInLocal(t.app, `Migrated ${uid}`);
    await t.db.query('UPDATE sessions SET uid = $1 WHERE uid = $2', [uid, user.uid]);
    return user.request({ method: 'GET', url });
  };

  it("the owner's photo is an id now, reached through the sheet; external URLs are kept", async () => {
    const players = await t.db.query<{
      player_key: string;
      image_url: string;
      photo_id: string | null;
    }>('SELECT player_key, image_url, photo_id FROM players ORDER BY player_key');
    expect(players).toEqual([
      { player_key: 'a1', image_url: '', photo_id: files.mine },
      { player_key: 'a2', image_url: 'https://firebasestorage.example/p2.jpg', photo_id: null },
      // Claimed by two users' players: given to neither.
      { player_key: 'a3', image_url: '', photo_id: null },
      { player_key: 'b1', image_url: '', photo_id: null },
    ]);
    const sheet = (await as('u-a', `${API}/teams/teamA`)).json<TeamSheet>();
    const a1 = sheet.roster.find((p) => p.key === 'a1')!;
    expect(a1.imageURL).toMatch(new RegExp(`^${API}/teams/teamA/players/a1/photo`));
    expect(sheet.roster.find((p) => p.key === 'a2')!.imageURL).toBe(
      'https://firebasestorage.example/p2.jpg',
    );
    expectPhoto(await as('u-a', a1.imageURL), 'owner', 'private');
  });

  it('the published copy names the photo through the sheet; the old URL is gone', async () => {
    const sheet = (
      await anonymous(t.app)({ method: 'GET', url: `${API}/rosters/pubA` })
    ).json<PublicRoster>();
    expect(sheet.roster.map((p) => p.imageURL)).toEqual([
      `${API}/rosters/pubA/players/a1/photo`,
      'https://firebasestorage.example/p2.jpg',
    ]);
    expectPhoto(
      await anonymous(t.app)({ method: 'GET', url: sheet.roster[0]!.imageURL }),
      'public',
      'public',
    );
    expectNoRoute(
      await anonymous(t.app)({ method: 'GET', url: `${OLD}${files.mine}.jpg` }),
      'old URL',
    );
  });

  it("a play count's stored URL still shows its owner's photo", async () => {
    const url = `${API}/playcounts/gameA/players/a1/photo`;
    const game = (await as('u-a', `${API}/playcounts/gameA`)).json<PlayCountGame>();
    expect(game.roster[0]!.imageURL).toBe(url);
    expectPhoto(await as('u-a', url), 'play count', 'private');
    expectGone(await as('u-b', url), 'another user');
  });

  it('the start-up sweep deletes files no photo row claims', () => {
    expect(fs.readdirSync(path.join(dataDir(), 'photos')).sort()).toEqual([`${files.mine}.jpg`]);
  });
});
