import { afterAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import { playCountGameSchema } from '@sagan/shared/playcount';
import { sharedPlayCountSchema } from '@sagan/shared/playcount-sideline';
import { seasonSchema } from '@sagan/shared/playcount-season';
import { anonymous, API, databaseKinds, useTestApp } from './helpers.ts';
import { call, type Method, newGameKey, ok, sampleGame } from './playcounts-fixtures.ts';
import { randomKey, tinyPng } from './security-world.ts';
import { isState, TestSocket } from './ws-client.ts';

describe.each(databaseKinds())('sideline play counter ($name)', (kind) => {
  const t = useTestApp(kind, { users: ['Coach', 'Other'], listen: true });
  const sockets: TestSocket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  const read = async (gameKey: string) =>
    playCountGameSchema.parse(await ok(call(t.users.Coach, 'GET', `/playcounts/${gameKey}`)));

  /** A sheet of Coach's with three players (one with a photo) and a lineup group. */
  async function team(names = ['10 Ann Lee', '2 Bo Ray', '7 Cy Dee']) {
    const { teamKey } = await ok<{ teamKey: string }>(call(t.users.Coach, 'POST', '/teams'));
    await ok(
      call(t.users.Coach, 'POST', `/teams/${teamKey}/players/bulk`, { text: names.join('\n') }),
    );
    const sheet = await ok<{ roster: { key: string; jersey: string }[] }>(
      call(t.users.Coach, 'GET', `/teams/${teamKey}`),
    );
    const byJersey = Object.fromEntries(sheet.roster.map((p) => [p.jersey, p.key]));
    await ok(
      t.users.Coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/${byJersey['10']}/photo`,
        headers: { 'content-type': 'image/png' },
        payload: await tinyPng(),
      }),
    );
    return { teamKey, keys: byJersey as Record<string, string> };
  }

  const start = (teamKey: string, extra: object = {}, key?: string, user = t.users.Coach) =>
    call(
      user,
      'POST',
      '/playcounts',
      { teamKey, gameName: 'Eagles at Hawks', gameDate: '2026-09-05', ...extra },
      key,
    );
  const snap = (gameKey: string, players: string[], key?: string, quarter = 1) =>
    call(
      t.users.Coach,
      'POST',
      `/playcounts/${gameKey}/snaps`,
      { quarter, groupName: 'O', players },
      key,
    );
  const undo = (gameKey: string, key?: string, user = t.users.Coach) =>
    call(user, 'DELETE', `/playcounts/${gameKey}/snaps/last`, undefined, key);

  it('starts a count from a sheet: roster copied in jersey order, team remembered, once per key', async () => {
    const { teamKey, keys } = await team();
    const key = randomKey();
    const first = await start(teamKey, { minPlays: 3, playersPerSnap: 2 }, key);
    expect(first.statusCode).toBe(201);
    const again = await start(teamKey, { minPlays: 3, playersPerSnap: 2 }, key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json()); // a double submit made one count
    const rows = await t.db.query('SELECT 1 FROM play_count_games WHERE team_key = $1', [teamKey]);
    expect(rows).toHaveLength(1);

    const game = await read(first.json<{ gameKey: string }>().gameKey);
    expect(game).toMatchObject({
      teamKey,
      minPlays: 3,
      playersPerSnap: 2,
      snaps: [],
      shareKey: null,
    });
    expect(game.roster.map((p) => [p.jersey, p.playerName, p.playCount, p.location])).toEqual([
      ['2', 'Bo Ray', 0, 2],
      ['7', 'Cy Dee', 0, 2],
      ['10', 'Ann Lee', 0, 2],
    ]);
    // The photo is the count's own, served to the owner only.
    const photo = game.roster[2]!.imageURL!;
    expect(photo).toBe(`${API}/playcounts/${game.gameKey}/players/${keys['10']}/photo`);
    expect((await t.users.Coach.request({ method: 'GET', url: photo })).statusCode).toBe(200);
    expect((await t.users.Other.request({ method: 'GET', url: photo })).statusCode).toBe(404);
  });

  it('refuses a sheet the caller does not own, anonymous callers and bad input', async () => {
    const { teamKey } = await team();
    expect((await start(teamKey, {}, undefined, t.users.Other)).statusCode).toBe(404);
    const anon = await anonymous(t.app)({
      method: 'POST',
      url: `${API}/playcounts`,
      payload: { teamKey, gameName: 'x', gameDate: 'y' },
    });
    expect(anon.statusCode).toBe(401);
    expect((await start(teamKey, { gameName: '' })).statusCode).toBe(400);
    expect((await start(teamKey, { playersPerSnap: 0 })).statusCode).toBe(400);
    expect((await start(teamKey, { minPlays: -1 })).statusCode).toBe(400);
    const count = await t.db.query('SELECT 1 FROM play_count_games WHERE team_key = $1', [teamKey]);
    expect(count).toHaveLength(0);
  });

  it('appends snaps one per request, exactly once per Idempotency-Key, and undoes the last', async () => {
    const { teamKey, keys } = await team();
    const { gameKey } = await ok<{ gameKey: string }>(start(teamKey, { minPlays: 2 }));
    const k1 = randomKey();
    const a = await snap(gameKey, [keys['2']!, keys['7']!], k1);
    expect(a.statusCode).toBe(201);
    expect(a.json()).toEqual({ snapCount: 1, snaps: 1 });
    // A retry after a lost answer replays the first answer and counts nothing.
    const replay = await snap(gameKey, [keys['2']!, keys['7']!], k1);
    expect(replay.json()).toEqual({ snapCount: 1, snaps: 1 });
    // The same key for another snap is a client bug: refused, nothing changes.
    expect((await snap(gameKey, [keys['10']!], k1)).statusCode).toBe(422);
    await ok(snap(gameKey, [keys['2']!, keys['10']!], randomKey(), 2));

    let game = await read(gameKey);
    expect(game.snaps).toEqual([
      { snapCount: 1, groupName: 'O', quarter: 1, [keys['2']!]: true, [keys['7']!]: true },
      { snapCount: 2, groupName: 'O', quarter: 2, [keys['2']!]: true, [keys['10']!]: true },
    ]);
    expect(game.roster.map((p) => [p.jersey, p.playCount, p.location])).toEqual([
      ['2', 2, 1],
      ['7', 1, 2],
      ['10', 1, 1],
    ]);

    const u = randomKey();
    expect((await undo(gameKey, u)).json()).toEqual({ snapCount: 2, snaps: 1 });
    expect((await undo(gameKey, u)).json()).toEqual({ snapCount: 2, snaps: 1 }); // replayed
    game = await read(gameKey);
    expect(game.snaps.map((s) => s.snapCount)).toEqual([1]);
    expect(game.roster.map((p) => p.playCount)).toEqual([1, 1, 0]);

    // A player not in the count, a bad quarter: 400 and nothing written.
    expect((await snap(gameKey, ['nobody'])).statusCode).toBe(400);
    expect((await snap(gameKey, [keys['2']!], undefined, 5)).statusCode).toBe(400);
    expect((await read(gameKey)).snaps).toHaveLength(1);
    await ok(undo(gameKey));
    expect((await undo(gameKey)).json()).toEqual({ snapCount: null, snaps: 0 });
  });

  it('is owner-only on every new route: another user gets not-found, anonymous 401', async () => {
    const { teamKey, keys } = await team();
    const { gameKey } = await ok<{ gameKey: string }>(start(teamKey));
    const other = t.users.Other;
    const anon = anonymous(t.app);
    const cases: [Method, string, object?][] = [
      ['POST', `/playcounts/${gameKey}/snaps`, { quarter: 1, players: [keys['2']] }],
      ['DELETE', `/playcounts/${gameKey}/snaps/last`],
      ['PUT', `/playcounts/${gameKey}/share`],
      ['DELETE', `/playcounts/${gameKey}/share`],
      ['GET', `/playcount-seasons/${teamKey}`],
    ];
    for (const [method, url, payload] of cases) {
      expect((await call(other, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
      const res = await anon({ method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const game = await read(gameKey);
    expect(game.snaps).toEqual([]);
    expect(game.shareKey).toBeNull();
  });

  it('keeps the phone app’s whole-game PUT working, on its own counts and on a web count', async () => {
    const phoneKey = newGameKey();
    expect(
      (await call(t.users.Coach, 'PUT', `/playcounts/${phoneKey}`, sampleGame())).statusCode,
    ).toBe(201);
    expect(await read(phoneKey)).toMatchObject({ teamKey: null, playersPerSnap: null });
    // The phone appends a snap by sending the whole game; the web appends one more after it.
    const { teamKey, keys } = await team();
    const { gameKey } = await ok<{ gameKey: string }>(start(teamKey, { playersPerSnap: 1 }));
    await ok(snap(gameKey, [keys['7']!]));
    const game = await read(gameKey);
    const roster = game.roster.map((p) => ({
      ...p,
      playCount: p.playCount + (p.jersey === '2' ? 1 : 0),
    }));
    const snaps = [
      ...game.snaps,
      { snapCount: 2, groupName: 'Phone', quarter: 3, [keys['2']!]: true },
    ];
    const put = await call(t.users.Coach, 'PUT', `/playcounts/${gameKey}`, {
      gameName: game.gameName,
      gameDate: game.gameDate,
      roster,
      snaps,
    });
    expect(put.statusCode).toBe(200);
    await ok(snap(gameKey, [keys['2']!, keys['10']!]));
    const after = await read(gameKey);
    expect(after).toMatchObject({ teamKey, playersPerSnap: 1 });
    expect(after.snaps.map((s) => [s.snapCount, s.groupName])).toEqual([
      [1, 'O'],
      [2, 'Phone'],
      [3, 'O'],
    ]);
    expect(after.roster.map((p) => p.playCount)).toEqual([2, 1, 1]);
    // The photo survived the phone's round trip of the count's own URL.
    expect(after.roster[2]!.imageURL).toBe(
      `${API}/playcounts/${gameKey}/players/${keys['10']}/photo`,
    );
    expect(
      (await t.users.Coach.request({ method: 'GET', url: after.roster[2]!.imageURL! })).statusCode,
    ).toBe(200);
  });

  it('shares a read-only live link under the sheet’s privacy; revoking it ends open views', async () => {
    const { teamKey, keys } = await team();
    const { gameKey } = await ok<{ gameKey: string }>(start(teamKey));
    const anon = anonymous(t.app);
    const { shareKey } = await ok<{ shareKey: string }>(
      call(t.users.Coach, 'PUT', `/playcounts/${gameKey}/share`),
    );
    expect(shareKey).toMatch(/^[A-Za-z0-9_-]{20}$/);
    // Sharing again keeps the same link.
    expect(
      (await ok<{ shareKey: string }>(call(t.users.Coach, 'PUT', `/playcounts/${gameKey}/share`)))
        .shareKey,
    ).toBe(shareKey);
    expect((await read(gameKey)).shareKey).toBe(shareKey);

    const view = await anon({ method: 'GET', url: `${API}/playcount-shares/${shareKey}` });
    expect(view.statusCode).toBe(200);
    expect(view.headers['x-robots-tag']).toBe('noindex');
    const shared = sharedPlayCountSchema.parse(view.json());
    expect(shared.roster.map((p) => p.playerName)).toEqual(['Bo Ray', 'Cy Dee', 'Ann Lee']);
    const photo = shared.roster[2]!.imageURL;
    expect(photo).toBe(`${API}/playcount-shares/${shareKey}/players/${keys['10']}/photo`);
    expect((await anon({ method: 'GET', url: photo })).statusCode).toBe(200);
    // The link reaches nothing else: not the owner's game, nor a made-up key.
    expect((await anon({ method: 'GET', url: `${API}/playcounts/${gameKey}` })).statusCode).toBe(
      401,
    );
    expect(
      (await anon({ method: 'GET', url: `${API}/playcount-shares/${randomKey()}` })).statusCode,
    ).toBe(404);

    // A parent watching the link sees the next snap live.
    const socket = await TestSocket.open(t.wsUrl, {});
    sockets.push(socket);
    const topic = `playcountshare:${shareKey}`;
    socket.send({ type: 'subscribe', topic });
    const first = await socket.waitFor(isState(topic));
    expect(sharedPlayCountSchema.parse(first.data).snaps).toEqual([]);
    let from = socket.messages.length;
    await ok(snap(gameKey, [keys['7']!]));
    const live = await socket.stateShowing(
      topic,
      (d) => sharedPlayCountSchema.parse(d).roster.find((p) => p.jersey === '7')?.playCount === 1,
      from,
    );
    const liveView = sharedPlayCountSchema.parse(live.data);
    expect(liveView.roster.find((p) => p.jersey === '7')?.playCount).toBe(1);

    // The sheet's privacy option applies to the link, open views included: initials, no photos.
    const beforePrivacy = socket.messages.length;
    await ok(
      call(t.users.Coach, 'PUT', `/teams/${teamKey}/privacy`, {
        initialsOnly: true,
        hidePhotos: true,
      }),
    );
    const hidden = sharedPlayCountSchema.parse(
      (await anon({ method: 'GET', url: `${API}/playcount-shares/${shareKey}` })).json(),
    );
    const pushed = await socket.waitFor(
      (m): m is Extract<ServerMessage, { type: 'state' }> =>
        isState(topic)(m) && sharedPlayCountSchema.parse(m.data).roster[0]?.playerName === 'B. R.',
      beforePrivacy,
    );
    expect(sharedPlayCountSchema.parse(pushed.data).roster[2]?.imageURL).toBe('');
    expect(hidden.roster.map((p) => [p.playerName, p.imageURL])).toEqual([
      ['B. R.', ''],
      ['C. D.', ''],
      ['A. L.', ''],
    ]);
    expect((await anon({ method: 'GET', url: photo })).statusCode).toBe(404);
    await ok(
      call(t.users.Coach, 'PUT', `/teams/${teamKey}/privacy`, {
        initialsOnly: false,
        hidePhotos: false,
      }),
    );

    // Revoked: the link and its photos answer 404, the open view gets null.
    from = socket.messages.length;
    await ok(call(t.users.Coach, 'DELETE', `/playcounts/${gameKey}/share`));
    const closed = await socket.waitFor(
      (m): m is Extract<ServerMessage, { type: 'state' }> => isState(topic)(m) && m.data === null,
      from,
    );
    expect(closed.data).toBeNull();
    expect(
      (await anon({ method: 'GET', url: `${API}/playcount-shares/${shareKey}` })).statusCode,
    ).toBe(404);
    expect((await anon({ method: 'GET', url: photo })).statusCode).toBe(404);
    expect((await read(gameKey)).shareKey).toBeNull();
    // A new subscriber to the old key gets null too; sharing again makes a new key.
    const late = await TestSocket.open(t.wsUrl, {});
    sockets.push(late);
    late.send({ type: 'subscribe', topic });
    expect((await late.waitFor(isState(topic))).data).toBeNull();
    const again = await ok<{ shareKey: string }>(
      call(t.users.Coach, 'PUT', `/playcounts/${gameKey}/share`),
    );
    expect(again.shareKey).not.toBe(shareKey);
  });

  it('sums a team’s season per player with each game’s minimum; the phone’s counts stay out', async () => {
    const { teamKey, keys } = await team();
    const g1 = (
      await ok<{ gameKey: string }>(start(teamKey, { gameDate: '2026-09-05', minPlays: 2 }))
    ).gameKey;
    const g2 = (
      await ok<{ gameKey: string }>(start(teamKey, { gameDate: '2026-09-12', gameName: 'Week 2' }))
    ).gameKey;
    await ok(snap(g1, [keys['2']!, keys['7']!]));
    await ok(snap(g1, [keys['2']!]));
    await ok(snap(g2, [keys['7']!, keys['10']!]));
    // A phone count (no team) is not part of any season.
    await ok(call(t.users.Coach, 'PUT', `/playcounts/${newGameKey()}`, sampleGame()));

    const season = seasonSchema.parse(
      await ok(call(t.users.Coach, 'GET', `/playcount-seasons/${teamKey}`)),
    );
    expect(season.games.map((g) => g.gameKey)).toEqual([g1, g2]);
    expect(
      season.players.map((p) => [p.jersey, p.plays, p.games, p.gamesShort, p.perGame]),
    ).toEqual([
      ['2', 2, 2, 0, [2, 0]],
      ['7', 2, 2, 1, [1, 1]],
      ['10', 1, 2, 1, [0, 1]],
    ]);
    expect((await call(t.users.Other, 'GET', `/playcount-seasons/${teamKey}`)).statusCode).toBe(
      404,
    );
  });
});
