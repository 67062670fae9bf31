import { localUid } from '../src/auth/local-uid.ts';
import { describe, expect, it } from 'vitest';
import { Hub } from '../src/realtime/hub.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadPlan } from '../src/import/load.ts';
import { readExport, UNOWNED_UID } from '../src/import/read-export.ts';
import { SAMPLE, sampleExport } from '../src/import/sample-export.ts';
import { anonymous, API, databaseKinds, signInLocal, useTestApp } from './helpers.ts';

// A Firebase export loads with every key kept, twice without change, and the
// imported user (through --uid-map) sees their own games, teams and play counts.

describe.each(databaseKinds())('importer on $name', (kind) => {
  const owner = 'Imported Coach';

  const t = useTestApp(kind, { beforeBuild: migrate });

  const plan = () => readExport(sampleExport(), { uidMap: { [SAMPLE.ownerUid]: localUid(owner) } });

  it('loads every path, reports what it could not load, and keeps the keys', async () => {
    const p = plan();
    expect(p.problems.map((x) => x.path).sort()).toEqual([
      `sagan/games/${SAMPLE.gameKey}/comments/-NxC2`,
      `users/${SAMPLE.ownerUid}/favoriteScoreboards/-NxMissingGame`,
    ]);
    const result = await loadPlan(t.app, p);
    expect(result.problems).toEqual([]);
    expect(result.summary.games.created).toBe(2);
    expect(result.summary.playCounts.created).toBe(1);

    const anon = anonymous(t.app);
    const game = (await anon({ method: 'GET', url: `${API}/games/${SAMPLE.gameKey}` })).json();
    expect(game.top).toMatchObject({
      homeTeamName: 'Lions',
      homeScore: 42,
      awayScore: 38,
      homePossession: true,
    });
    expect(game.comments.map((c: { gameComment: string }) => c.gameComment)).toEqual([
      'Great start',
    ]);
    expect(game.tags).toEqual([{ key: SAMPLE.tagKey, name: 'lions' }]);
    const tag = await anon({ method: 'GET', url: `${API}/tags/${SAMPLE.tagKey}` });
    expect(tag.statusCode).toBe(200);
    const roster = await anon({ method: 'GET', url: `${API}/rosters/${SAMPLE.publishedAsKey}` });
    expect(roster.statusCode).toBe(200);
    expect(
      roster
        .json()
        .roster.map((x: { playerName: string }) => x.playerName)
        .sort(),
    ).toEqual(['Ada Lovelace', 'Grace Hopper']);
    // The orphan game still answers its old link.
    expect(
      (await anon({ method: 'GET', url: `${API}/games/${SAMPLE.orphanGameKey}` })).statusCode,
    ).toBe(200);
    const orphan = await t.db.query<{ uid: string }>('SELECT uid FROM games WHERE game_key = $1', [
      SAMPLE.orphanGameKey,
    ]);
    expect(orphan[0]?.uid).toBe(UNOWNED_UID);
  });

  it('gives the mapped user their play counts, teams, bookmarks and followed tags', async () => {
    const me = await signInLocal(t.app, owner);
    expect(me.uid).toBe(localUid(owner));
    const pcs = (await me.request({ method: 'GET', url: `${API}/playcounts` })).json();
    expect(pcs.games.map((g: { gameKey: string }) => g.gameKey)).toEqual([SAMPLE.playCountKey]);
    const pc = (
      await me.request({ method: 'GET', url: `${API}/playcounts/${SAMPLE.playCountKey}` })
    ).json();
    expect(pc.snaps).toHaveLength(2);
    const teams = (await me.request({ method: 'GET', url: `${API}/teams` })).json();
    expect(teams.mine).toEqual([
      {
        teamKey: SAMPLE.teamKey,
        teamName: 'Lions U10',
        teamNotes: 'Saturday league',
        publishedAsKey: SAMPLE.publishedAsKey,
      },
    ]);
    expect(teams.following).toEqual([
      { publishedAsKey: SAMPLE.publishedAsKey, teamName: 'Lions U10' },
    ]);
    const sheet = (
      await me.request({ method: 'GET', url: `${API}/teams/${SAMPLE.teamKey}` })
    ).json();
    expect(sheet.groupMembership[SAMPLE.groupKey][SAMPLE.playerKeys[0]].location).toBe(1);
    const favs = (
      await me.request({ method: 'GET', url: `${API}/me/favorite-scoreboards` })
    ).json();
    expect(JSON.stringify(favs)).toContain(SAMPLE.gameKey);
    // Somebody else sees none of it.
    const other = await signInLocal(t.app, 'Someone Else');
    expect(
      (await other.request({ method: 'GET', url: `${API}/playcounts/${SAMPLE.playCountKey}` }))
        .statusCode,
    ).toBe(404);
  });

  it('changes nothing when run a second time', async () => {
    const before = await t.db.query('SELECT count(*) AS n FROM game_comments');
    // The first run's list topics are numbered within an interval after it: all of them first.
    await t.app.hub.coalescer.settled();
    const seq = await t.db.query('SELECT topic, seq FROM topic_seq ORDER BY topic');
    const result = await loadPlan(t.app, plan());
    await t.app.hub.coalescer.settled();
    for (const counts of Object.values(result.summary)) {
      expect(counts.created + counts.updated).toBe(0);
    }
    expect(await t.db.query('SELECT count(*) AS n FROM game_comments')).toEqual(before);
    expect(await t.db.query('SELECT topic, seq FROM topic_seq ORDER BY topic')).toEqual(seq);
  });

  it('refuses to take over a key another user owns, and says so', async () => {
    const other = await signInLocal(t.app, 'Key Squatter');
    const res = await other.request({ method: 'POST', url: `${API}/games`, payload: {} });
    const { gameKey } = res.json<{ gameKey: string }>();
    const data = sampleExport();
    const games = (data.sagan as { games: Record<string, unknown> }).games;
    games[gameKey] = games[SAMPLE.gameKey];
    const p = readExport(data, { uidMap: { [SAMPLE.ownerUid]: localUid(owner) } });
    p.games = p.games
      .filter((g) => g.gameKey === gameKey)
      .map((g) => ({ ...g, uid: localUid(owner) }));
    const result = await loadPlan(t.app, {
      ...p,
      comments: [],
      gameTags: [],
      favoriteScoreboards: [],
    });
    expect(result.problems).toEqual([
      { path: `sagan/games/${gameKey}/top`, reason: expect.stringContaining('another user') },
    ]);
    const row = await t.db.query<{ uid: string }>('SELECT uid FROM games WHERE game_key = $1', [
      gameKey,
    ]);
    expect(row[0]?.uid).toBe(other.uid);
  });

  it('a Hub built for the import bumps the topics of what changed', async () => {
    const hub = new Hub(t.db, t.app.log);
    const data = sampleExport();
    (
      (data.sagan as { games: Record<string, { top: { homeScore: unknown } }> }).games[
        SAMPLE.gameKey
      ] as { top: { homeScore: unknown } }
    ).top.homeScore = 50;
    const p = readExport(data, { uidMap: { [SAMPLE.ownerUid]: localUid(owner) } });
    const seq = async () =>
      (
        await t.db.query<{ seq: number }>('SELECT seq FROM topic_seq WHERE topic = $1', [
          `game:${SAMPLE.gameKey}`,
        ])
      )[0]?.seq;
    const before = Number(await seq());
    const result = await loadPlan({ db: t.db, hub }, p);
    expect(result.summary.games.updated).toBe(1);
    expect(Number(await seq())).toBe(before + 1);
  });

  it('a changed player updates the team and its published sheet, not who follows it', async () => {
    const data = sampleExport();
    const [, p2] = SAMPLE.playerKeys;
    const teams = data.teams as Record<string, { roster: Record<string, { playerName: string }> }>;
    // The sample's team and its published sheet share one roster object.
    teams[SAMPLE.teamKey]!.roster[p2]!.playerName = 'Grace B. Hopper';
    const p = readExport(data, { uidMap: { [SAMPLE.ownerUid]: localUid(owner) } });
    const result = await loadPlan(t.app, p);
    expect(result.summary.teams).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(result.summary.rosters).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(result.summary.favoriteRosters).toEqual({ created: 0, updated: 0, unchanged: 1 });
    const rows = await t.db.query<{ player_name: string }>(
      'SELECT player_name FROM players WHERE team_key = $1 AND player_key = $2',
      [SAMPLE.teamKey, p2],
    );
    expect(rows[0]?.player_name).toBe('Grace B. Hopper');
  });
});
