import { describe, expect, it } from 'vitest';
import {
  anonymous,
  API,
  buildTestApp,
  databaseKinds,
  newGameOf,
  signInLocal,
  type TestUser,
  useTestApp,
} from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

interface Tag {
  key: string;
  name: string;
  gameCount: number;
}

describe.each(databaseKinds())('scoreboards on $name', (kind) => {
  const newGame = (user: TestUser, body?: Record<string, unknown>) => newGameOf(user, body);
  const getGame = async (gameKey: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/games/${gameKey}` });
    expect(res.statusCode).toBe(200);
    return res.json<{ top: Record<string, unknown>; comments: unknown[]; tags: Tag[] }>();
  };
  const tagLists = async () =>
    (await t.app.inject({ method: 'GET', url: `${API}/tags` })).json<{
      newTags: Tag[];
      popularTags: Tag[];
    }>();

  const t = useTestApp(kind, { users: ['Scorer', 'Stranger'], listen: true });

  it('creates a game with initial fields and defaults for the rest; the server sets timeStamp', async () => {
    const before = Date.now();
    const gameKey = await newGame(t.users.Scorer, {
      gameName: 'Cup Final',
      sportID: 2,
      homeScore: 4,
    });
    const { top } = await getGame(gameKey);
    expect(top).toMatchObject({ gameKey, gameName: 'Cup Final', sportID: 2, homeScore: 4 });
    expect(top.awayScore).toBe(0);
    expect(top.gamePeriod).toBe('Starting Soon');
    expect(top.timeStamp).toBeGreaterThanOrEqual(before);
    expect(top).not.toHaveProperty('uid');
  });

  it('only the owner writes: anonymous 401, another user 403, unknown game 404, nothing changes', async () => {
    const gameKey = await newGame(t.users.Scorer, { homeScore: 1 });
    const anon = anonymous(t.app);
    const writes = [
      { method: 'PATCH' as const, url: `${API}/games/${gameKey}`, payload: { homeScore: 9 } },
      {
        method: 'POST' as const,
        url: `${API}/games/${gameKey}/clock`,
        payload: { formattedTime: '9:59', seconds: 599 },
      },
      {
        method: 'POST' as const,
        url: `${API}/games/${gameKey}/comments`,
        payload: { gameComment: 'hacked' },
      },
      { method: 'PUT' as const, url: `${API}/games/${gameKey}/tags`, payload: { tags: ['evil'] } },
      { method: 'GET' as const, url: `${API}/games/${gameKey}/messages` },
    ];
    for (const w of writes) {
      expect((await anon(w)).statusCode, `${w.method} ${w.url} anonymous`).toBe(401);
      expect((await t.users.Stranger.request(w)).statusCode, `${w.method} ${w.url} other`).toBe(
        403,
      );
      const missing = { ...w, url: w.url.replace(gameKey, 'noSuchGame') };
      expect((await t.users.Scorer.request(missing)).statusCode, `${w.method} missing`).toBe(404);
    }
    expect((await anon({ method: 'POST', url: `${API}/games`, payload: {} })).statusCode).toBe(401);
    const game = await getGame(gameKey);
    expect(game.top.homeScore).toBe(1);
    expect(game.comments).toEqual([]);
    expect(game.tags).toEqual([]);
    const clock = await t.db.query<{ clock_formatted: string | null }>(
      'SELECT clock_formatted FROM games WHERE game_key = $1',
      [gameKey],
    );
    expect(clock[0]?.clock_formatted).toBeNull();
    expect((await tagLists()).newTags.map((t) => t.name)).not.toContain('evil');
  });

  it.each([
    [{ homeScore: -1 }, 'homeScore'],
    [{ homeScore: 2.5 }, 'homeScore'],
    [{ awayScore: '3' }, 'awayScore'],
    [{ base1: 'true' }, 'base1'],
    [{ maxSets: 6 }, 'maxSets'],
    // 0, 15, 30, 40, AD, or a tiebreak's count: never a word, nor a count past 999.
    [{ homeScorePointsTennis: 'DEUCE' }, 'homeScorePointsTennis'],
    [{ awayScorePointsTennis: '1000' }, 'awayScorePointsTennis'],
    [{ tennisDecider: 'sudden' }, 'tennisDecider'],
    [{ timeStamp: 1 }, 'timeStamp'],
    [{ homeScroe: 1 }, 'homeScroe'],
  ])('refuses the patch %j with a 400 naming the field', async (payload, field) => {
    const gameKey = await newGame(t.users.Scorer);
    const res = await t.users.Scorer.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toContain(field);
  });

  it('refuses bad clock, comment and tag input with a 400', async () => {
    const gameKey = await newGame(t.users.Scorer);
    const bad = [
      { url: `${API}/games/${gameKey}/clock`, method: 'POST' as const, payload: { seconds: 3 } },
      {
        url: `${API}/games/${gameKey}/clock`,
        method: 'POST' as const,
        payload: { formattedTime: '1:00', seconds: -1 },
      },
      {
        url: `${API}/games/${gameKey}/comments`,
        method: 'POST' as const,
        payload: { gameComment: '  ' },
      },
      {
        url: `${API}/games/${gameKey}/comments`,
        method: 'POST' as const,
        payload: { gameComment: 'hi', imageURL: 'javascript:alert(1)' },
      },
      {
        url: `${API}/games/${gameKey}/tags`,
        method: 'PUT' as const,
        payload: { tags: ['has space'] },
      },
      { url: `${API}/games/${gameKey}/tags`, method: 'PUT' as const, payload: { tags: 'solo' } },
      { url: `${API}/games/bad%20key`, method: 'PATCH' as const, payload: { homeScore: 1 } },
    ];
    for (const b of bad)
      expect((await t.users.Scorer.request(b)).statusCode, JSON.stringify(b)).toBe(400);
  });

  it('updates fields, comments and the clock for the owner, and a patch moves timeStamp on', async () => {
    const gameKey = await newGame(t.users.Scorer);
    const t0 = (await getGame(gameKey)).top.timeStamp as number;
    const patch = await t.users.Scorer.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { homeScore: 3, base2: true, gamePeriod: 'Q2', homeScorePointsTennis: 'AD' },
    });
    expect(patch.statusCode).toBe(200);
    const game = await getGame(gameKey);
    expect(game.top).toMatchObject({ homeScore: 3, base2: true, gamePeriod: 'Q2' });
    expect(game.top.timeStamp as number).toBeGreaterThan(t0);
    await t.users.Scorer.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/comments`,
      payload: { gameComment: 'First goal!', homeTeamName: 'Reds', homeScore: 1 },
    });
    await t.users.Scorer.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/comments`,
      payload: { gameComment: 'Second goal!' },
    });
    const comments = (await getGame(gameKey)).comments as { gameComment: string }[];
    expect(comments.map((c) => c.gameComment)).toEqual(['Second goal!', 'First goal!']);
    const clock = await t.users.Scorer.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/clock`,
      payload: { formattedTime: '12:34', seconds: 754 },
    });
    expect(clock.statusCode).toBe(200);
  });

  it('creates tags on first use (case-insensitive) and gameCount follows the games', async () => {
    const a = await newGame(t.users.Scorer);
    const b = await newGame(t.users.Scorer);
    const c = await newGame(t.users.Scorer);
    const put = (gameKey: string, tags: string[]) =>
      t.users.Scorer.request({
        method: 'PUT',
        url: `${API}/games/${gameKey}/tags`,
        payload: { tags },
      });
    expect((await put(a, ['U12Cup', 'derby'])).statusCode).toBe(200);
    await put(b, ['u12cup']);
    await put(c, ['U12CUP', 'Derby', 'rare']);
    const gameTags = (await getGame(b)).tags;
    expect(gameTags.map((t) => t.name)).toEqual(['U12Cup']); // the first spelling is the name
    let lists = await tagLists();
    const count = (name: string) => lists.popularTags.find((t) => t.name === name)?.gameCount;
    expect(count('U12Cup')).toBe(3);
    expect(count('derby')).toBe(2);
    expect(count('rare')).toBe(1);
    // DESIGN §8: Popular Tags most games first; New Tags newest first.
    const popular = lists.popularTags.map((t) => t.name);
    expect(popular.indexOf('U12Cup')).toBeLessThan(popular.indexOf('derby'));
    expect(popular.indexOf('derby')).toBeLessThan(popular.indexOf('rare'));
    const newest = lists.newTags.map((t) => t.name);
    expect(newest.indexOf('rare')).toBeLessThan(newest.indexOf('U12Cup'));

    // Replacing a game's tags takes it out of the old ones.
    await put(c, ['derby']);
    lists = await tagLists();
    expect(count('U12Cup')).toBe(2);
    expect(count('rare')).toBeUndefined(); // no games left: not listed
    const tagID = gameTags[0]!.key;
    const tagPage = await t.app.inject({ method: 'GET', url: `${API}/tags/${tagID}` });
    expect(
      tagPage
        .json<{ games: { gameKey: string }[] }>()
        .games.map((g) => g.gameKey)
        .sort(),
    ).toEqual([a, b].sort());
    expect((await t.app.inject({ method: 'GET', url: `${API}/tags/noSuchTag` })).statusCode).toBe(
      404,
    );
  });

  it('lists the 10 most recently updated games, newest first', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 12; i++)
      keys.push(await newGame(t.users.Scorer, { gameName: `Recent ${i}` }));
    // Updating an old game brings it to the top.
    await t.users.Scorer.request({
      method: 'PATCH',
      url: `${API}/games/${keys[0]}`,
      payload: { awayScore: 1 },
    });
    const recent = (await t.app.inject({ method: 'GET', url: `${API}/games/recent` })).json<
      { gameKey: string; timeStamp: number }[]
    >();
    expect(recent).toHaveLength(10);
    expect(recent[0]!.gameKey).toBe(keys[0]);
    // The nine newest of the others follow, newest first by their stamps. Games created in the
    // same millisecond share a stamp, and their order among themselves is not part of it.
    expect(
      recent
        .slice(1)
        .map((g) => g.gameKey)
        .sort(),
    ).toEqual(keys.slice(3).sort());
    const stamps = recent.map((g) => g.timeStamp);
    expect([...stamps].sort((x, y) => y - x)).toEqual(stamps);
  });

  it('bookmarks store the gameName and follow renames; follows list the games under the tag', async () => {
    const gameKey = await newGame(t.users.Scorer, { gameName: 'Old Name' });
    const anon = anonymous(t.app);
    const bookmark = { method: 'PUT' as const, url: `${API}/me/favorite-scoreboards/${gameKey}` };
    expect((await anon(bookmark)).statusCode).toBe(401);
    expect(
      (
        await t.users.Stranger.request({
          ...bookmark,
          url: `${API}/me/favorite-scoreboards/noSuchGame`,
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.users.Stranger.request(bookmark)).statusCode).toBe(200);
    await t.users.Scorer.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { gameName: 'New Name' },
    });
    const favs = (
      await t.users.Stranger.request({ method: 'GET', url: `${API}/me/favorite-scoreboards` })
    ).json<{ gameKey: string; gameName: string }[]>();
    expect(favs).toEqual([expect.objectContaining({ gameKey, gameName: 'New Name' })]);
    await t.users.Stranger.request({ method: 'DELETE', url: bookmark.url });
    expect(
      (
        await t.users.Stranger.request({ method: 'GET', url: `${API}/me/favorite-scoreboards` })
      ).json(),
    ).toEqual([]);

    const tags = await t.users.Scorer.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/tags`,
      payload: { tags: ['followme'] },
    });
    const tagID = tags.json<{ tags: Tag[] }>().tags[0]!.key;
    expect(
      (await anon({ method: 'PUT', url: `${API}/me/followed-tags/${tagID}` })).statusCode,
    ).toBe(401);
    expect(
      (await t.users.Stranger.request({ method: 'PUT', url: `${API}/me/followed-tags/${tagID}` }))
        .statusCode,
    ).toBe(200);
    const followed = (
      await t.users.Stranger.request({ method: 'GET', url: `${API}/me/followed-tags` })
    ).json<{
      tags: Tag[];
      games: { gameKey: string }[];
    }>();
    expect(followed.tags.map((t) => t.name)).toEqual(['followme']);
    expect(followed.games.map((g) => g.gameKey)).toEqual([gameKey]);
    await t.users.Stranger.request({ method: 'DELETE', url: `${API}/me/followed-tags/${tagID}` });
    expect(
      (await t.users.Stranger.request({ method: 'GET', url: `${API}/me/followed-tags` })).json<{
        tags: Tag[];
      }>().tags,
    ).toEqual([]);
  });

  it('viewers message the scorekeeper when signed in; only the owner reads the messages', async () => {
    const gameKey = await newGame(t.users.Scorer);
    const url = `${API}/games/${gameKey}/scorekeeper-message`;
    const send = async (as: TestUser['request'], scoreKeeperMessage: string) =>
      (await as({ method: 'POST', url, payload: { scoreKeeperMessage } })).statusCode;
    expect(await send(anonymous(t.app), 'hi')).toBe(401);
    expect(await send(t.users.Stranger.request, ' ')).toBe(400);
    expect(await send(t.users.Stranger.request, 'Go reds')).toBe(200);
    const res = await t.users.Scorer.request({
      method: 'GET',
      url: `${API}/games/${gameKey}/messages`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ messages: unknown[] }>().messages).toEqual([
      expect.objectContaining({ fromName: 'Stranger', message: 'Go reds' }),
    ]);
  });

  it('rate limits scorekeeper messages per sender', async () => {
    const limited = await buildTestApp(t.db, { rateLimitFactor: 1 });
    try {
      // Signed in on the main app: both apps count sign-ins in the database they share, as
      // nodes do, and this file's many sign-ins are over the limited app's sign-in limit. The
      // session works on either app.
      const sender = await signInLocal(t.app, 'Chatty');
      const gameKey = await newGame(t.users.Scorer);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const r = await limited.inject({
          headers: { 'x-sagan-request': '1', cookie: sender.cookie },
          method: 'POST',
          url: `${API}/games/${gameKey}/scorekeeper-message`,
          payload: { scoreKeeperMessage: `msg ${i}` },
        });
        statuses.push(r.statusCode);
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('viewers get changes live, count as watchers, and per-user topics are private', async () => {
    const gameKey = await newGame(t.users.Scorer, { gameName: 'Live one' });
    const ws = await TestSocket.open(t.wsUrl);
    try {
      ws.send({ type: 'subscribe', topic: `game:${gameKey}` });
      ws.send({ type: 'subscribe', topic: `clock:${gameKey}` });
      ws.send({ type: 'subscribe', topic: 'games:recent' });
      await ws.waitFor(isState(`game:${gameKey}`));
      await ws.waitFor(isState('games:recent'));
      const watchers = await t.app.inject({
        method: 'GET',
        url: `${API}/games/${gameKey}/watchers`,
      });
      expect(watchers.json()).toEqual({ gameKey, watchers: 1 });

      const from = ws.messages.length;
      await t.users.Scorer.request({
        method: 'PATCH',
        url: `${API}/games/${gameKey}`,
        payload: { homeScore: 7 },
      });
      const update = await ws.waitFor(
        (m): m is Extract<typeof m, { type: 'state' }> =>
          isState(`game:${gameKey}`)(m) &&
          (m.data as { top: { homeScore: number } }).top.homeScore === 7,
        from,
      );
      expect(update.seq).toBeGreaterThan(0);
      await ws.waitFor(
        (m): m is Extract<typeof m, { type: 'state' }> =>
          isState('games:recent')(m) && (m.data as { gameKey: string }[])[0]?.gameKey === gameKey,
        from,
      );
      await t.users.Scorer.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/clock`,
        payload: { formattedTime: '4:59', seconds: 299 },
      });
      await ws.waitFor(
        (m): m is Extract<typeof m, { type: 'state' }> =>
          isState(`clock:${gameKey}`)(m) && (m.data as { seconds: number }).seconds === 299,
        from,
      );

      // Another user's lists are refused; an anonymous socket gets none.
      ws.send({ type: 'subscribe', topic: `user:${t.users.Scorer.uid}:games` });
      await ws.waitFor(
        (m): m is Extract<typeof m, { type: 'error' }> =>
          m.type === 'error' && m.topic === `user:${t.users.Scorer.uid}:games`,
      );
      const mine = await TestSocket.open(t.wsUrl, { cookie: t.users.Scorer.cookie });
      try {
        mine.send({ type: 'subscribe', topic: `user:${t.users.Scorer.uid}:games` });
        const list = await mine.waitFor(isState(`user:${t.users.Scorer.uid}:games`));
        expect((list.data as { gameKey: string }[]).map((g) => g.gameKey)).toContain(gameKey);
        mine.send({ type: 'subscribe', topic: `user:${t.users.Stranger.uid}:favorites` });
        await mine.waitFor(
          (m): m is Extract<typeof m, { type: 'error' }> =>
            m.type === 'error' && m.topic === `user:${t.users.Stranger.uid}:favorites`,
        );
      } finally {
        mine.close();
      }
    } finally {
      ws.close();
    }
  });

  it('a missing game is a 404 over HTTP and null over the realtime topic', async () => {
    expect((await t.app.inject({ method: 'GET', url: `${API}/games/noSuchGame` })).statusCode).toBe(
      404,
    );
    const ws = await TestSocket.open(t.wsUrl);
    try {
      ws.send({ type: 'subscribe', topic: 'game:noSuchGame' });
      const state = await ws.waitFor(isState('game:noSuchGame'));
      expect(state.data).toBeNull();
    } finally {
      ws.close();
    }
  });
});
