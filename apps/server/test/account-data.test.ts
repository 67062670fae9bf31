import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELETE_ACCOUNT_CONFIRMATION } from '@sagan/shared/account';
import { tableNames } from '../src/db/moment.ts';
import { API, anonymous, databaseKinds, useTempDir, useTestApp } from './helpers.ts';
import { makeWorld, tableVersions, type World } from './security-world.ts';

interface Exported {
  account: { uid: string; displayName: string };
  games: {
    gameKey: string;
    comments: { gameComment: string }[];
    tags: string[];
    messagesReceived: { message: string }[];
  }[];
  messagesSent: { gameKey: string; message: string }[];
  tagsFollowed: string[];
  bookmarks: { scoreboards: { gameKey: string }[] };
  teams: {
    teamKey: string;
    players: { playerName: string; photoId: string | null }[];
    groups: { groupName: string }[];
  }[];
  photos: { photoId: string; dataUrl: string }[];
  playCounts: { gameKey: string; shareKey: string | null; shareLink: string | null }[];
}

describe.each(databaseKinds())("a person's data ($name)", (kind) => {
  const dataDir = useTempDir('sagan-account-');
  const t = useTestApp(kind, () => ({ config: { dataDir: dataDir() } }));
  let w: World;
  let theirs: World;

  it('"Download my data" holds everything of theirs and nothing of anyone else', async () => {
    w = await makeWorld(t.app);
    theirs = await makeWorld(t.app);
    // The owner also follows a tag, bookmarks and messages someone else's game.
    const otherGame = theirs.gameKey;
    await w.owner.request({ method: 'PUT', url: `${API}/me/followed-tags/${theirs.tagKey}` });
    await w.owner.request({ method: 'PUT', url: `${API}/me/favorite-scoreboards/${otherGame}` });
    const sent = await w.owner.request({
      method: 'POST',
      url: `${API}/games/${otherGame}/scorekeeper-message`,
      payload: { scoreKeeperMessage: 'Great game' },
    });
    expect(sent.statusCode).toBe(200);

    const res = await w.owner.request({ method: 'GET', url: `${API}/me/data` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="sagan-my-data-\d{4}-\d\d-\d\d\.json"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json<Exported>();
    expect(data.account.uid).toBe(w.owner.uid);
    const game = data.games.find((g) => g.gameKey === w.gameKey)!;
    expect(game.comments.map((c) => c.gameComment)).toContain('Kick-off');
    expect(game.tags).toHaveLength(1);
    expect(game.messagesReceived.map((m) => m.message)).toEqual(['Score please']);
    expect(data.messagesSent).toEqual([
      expect.objectContaining({ gameKey: otherGame, message: 'Great game' }),
    ]);
    expect(data.tagsFollowed).toHaveLength(1);
    expect(data.bookmarks.scoreboards.map((b) => b.gameKey)).toEqual([otherGame]);
    const team = data.teams.find((x) => x.teamKey === w.teamKey)!;
    expect(team.players.map((p) => p.playerName)).toEqual(['Ann Lee']);
    expect(team.groups.map((g) => g.groupName)).toEqual(['Offense']);
    // The photo, as the very bytes the owner is served.
    const photo = await w.owner.request({
      method: 'GET',
      url: `${API}/teams/${w.teamKey}/players/${w.playerKey}/photo`,
    });
    expect(data.photos).toHaveLength(1);
    expect(data.photos[0]!.photoId).toBe(team.players[0]!.photoId);
    const bytes = Buffer.from(
      data.photos[0]!.dataUrl.replace(/^data:image\/jpeg;base64,/, ''),
      'base64',
    );
    expect(bytes.equals(photo.rawPayload)).toBe(true);
    const shared = data.playCounts.find((p) => p.gameKey === w.sidelineKey)!;
    expect(shared.shareKey).toBe(w.shareKey);
    expect(shared.shareLink).toMatch(new RegExp(`/apps/sagan/playcountshare/${w.shareKey}$`));
    expect(data.playCounts.map((p) => p.gameKey)).toContain(w.playCountKey);
    // Nothing of the other person's.
    expect(res.body).not.toContain(theirs.owner.uid);
    expect(res.body).not.toContain(theirs.teamKey);

    expect((await anonymous(t.app)({ method: 'GET', url: `${API}/me/data` })).statusCode).toBe(401);
  });

  it('"Delete my account" without the confirmation deletes nothing', async () => {
    const before = await tableVersions(t.db);
    for (const payload of [{}, { confirm: 'yes' }]) {
      const res = await w.owner.request({ method: 'POST', url: `${API}/me/delete`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/delete my account/);
    }
    expect(await tableVersions(t.db)).toBe(before);
  });

  it('"Delete my account" removes everything of theirs; links and photos answer 404 at once', async () => {
    const anon = anonymous(t.app);
    const publicUrls = [
      `${API}/rosters/${w.publishedAsKey}`,
      `${API}/rosters/${w.publishedAsKey}/players/${w.playerKey}/photo`,
      `${API}/playcount-shares/${w.shareKey}`,
      `${API}/games/${w.gameKey}`,
    ];
    for (const url of publicUrls)
      expect((await anon({ method: 'GET', url })).statusCode, url).toBe(200);
    const photoDir = path.join(dataDir(), 'photos');
    const filesBefore = fs.readdirSync(photoDir).length;
    // Events they made in someone else's game and play count (a co-scorer's taps, an import).
    await t.db.query(
      `INSERT INTO game_events (game_key, event_id, uid, device, seq, period, at, body)
       VALUES ($1, 'their-tap', $2, 'their-phone', 1000, '1', 0, '{"kind":"set","values":{}}')`,
      [theirs.gameKey, w.owner.uid],
    );
    await t.db.query(
      `INSERT INTO playcount_events (game_key, event_id, uid, device, body)
       VALUES ($1, 'their-snap', $2, 'their-phone', '{"kind":"set"}')`,
      [theirs.playCountKey, w.owner.uid],
    );

    const res = await w.owner.request({
      method: 'POST',
      url: `${API}/me/delete`,
      payload: { confirm: DELETE_ACCOUNT_CONFIRMATION },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, teams: 1, games: 1, playCounts: 2, photos: 1 });

    for (const url of publicUrls)
      expect((await anon({ method: 'GET', url })).statusCode, url).toBe(404);
    const recent = await anon({ method: 'GET', url: `${API}/games/recent` });
    expect(recent.body).not.toContain(w.gameKey);
    // Signed out everywhere: the old cookie is nobody.
    expect((await w.owner.request({ method: 'GET', url: `${API}/auth/me` })).statusCode).toBe(401);
    expect(fs.readdirSync(photoDir).length).toBe(filesBefore - 1);

    // No row of any table holds their id or a key of anything they made: a backup taken now
    // holds nothing of theirs.
    const keys = [
      w.owner.uid,
      w.gameKey,
      w.teamKey,
      w.publishedAsKey,
      w.playCountKey,
      w.sidelineKey,
      w.shareKey,
    ];
    for (const table of await tableNames(t.db)) {
      // Topic counters keep the names of deleted things' topics (random keys, no person).
      for (const key of table === 'topic_seq' ? [w.owner.uid] : keys) {
        const hits = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${table}" t WHERE strpos(t::text, $1) > 0`,
          [key],
        );
        expect(hits[0]!.n, `${table} holds ${key}`).toBe(0);
      }
    }
    // Their events in other people's logs stay, naming nobody.
    expect(
      await t.db.query(
        `SELECT uid, device FROM game_events WHERE game_key = $1 AND event_id = 'their-tap'
         UNION ALL
         SELECT uid, device FROM playcount_events WHERE game_key = $2 AND event_id = 'their-snap'`,
        [theirs.gameKey, theirs.playCountKey],
      ),
    ).toEqual([
      { uid: '', device: null },
      { uid: '', device: null },
    ]);
    // Everyone else keeps their data.
    const other = await theirs.owner.request({
      method: 'GET',
      url: `${API}/teams/${theirs.teamKey}`,
    });
    expect(other.statusCode).toBe(200);
  });
});
