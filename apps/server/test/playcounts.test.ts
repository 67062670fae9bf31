import { describe, expect, it } from 'vitest';
import { playCountGameSchema, playCountListSchema } from '@sagan/shared/playcount';
import { anonymous, API, databaseKinds, type TestUser, useTestApp } from './helpers.ts';
import { newGameKey, sampleGame } from './playcounts-fixtures.ts';

describe.each(databaseKinds())('play counts API ($name)', (kind) => {
  const t = useTestApp(kind, { users: ['Carter', 'Parent'] });

  const put = (user: TestUser, gameKey: string, payload: object | string) =>
    user.request({ method: 'PUT', url: `${API}/playcounts/${gameKey}`, payload });
  const patch = (user: TestUser, gameKey: string, payload: object | string) =>
    user.request({ method: 'PATCH', url: `${API}/playcounts/${gameKey}`, payload });
  const get = (user: TestUser, gameKey: string) =>
    user.request({ method: 'GET', url: `${API}/playcounts/${gameKey}` });
  const list = async (user: TestUser) => {
    const res = await user.request({ method: 'GET', url: `${API}/playcounts` });
    expect(res.statusCode).toBe(200);
    return playCountListSchema.parse(res.json()).games;
  };
  const stored = async (gameKey: string) =>
    (
      await t.db.query<{ uid: string; game: { gameName: string }; archived: boolean }>(
        'SELECT uid, game, archived FROM play_count_games WHERE game_key = $1',
        [gameKey],
      )
    )[0];

  it('creates a game with PUT (201), then replaces it (200), and reads it back', async () => {
    const key = newGameKey();
    const created = await put(t.users.Carter, key, sampleGame());
    expect(created.statusCode).toBe(201);
    const game = playCountGameSchema.parse(created.json());
    expect(game).toMatchObject({ gameKey: key, gameName: 'Eagles at Hawks', archived: false });
    expect(game.minPlays).toBeNull();
    expect(game.snaps[1]).toEqual({
      snapCount: 2,
      groupName: 'Defense',
      quarter: 1,
      p1: true,
      p2: true,
    });

    const replaced = await put(
      t.users.Carter,
      key,
      sampleGame({ gameName: 'Eagles at Hawks (2nd half)' }),
    );
    expect(replaced.statusCode).toBe(200);

    const read = await get(t.users.Carter, key);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      gameKey: key,
      gameName: 'Eagles at Hawks (2nd half)',
      roster: [
        { key: 'p1', playerName: 'Lee, Ann' },
        { key: 'p2', imageURL: 'https://example.com/bo.jpg' },
      ],
    });
    expect((await list(t.users.Carter)).find((g) => g.gameKey === key)).toMatchObject({
      gameName: 'Eagles at Hawks (2nd half)',
      gameDate: '2025-09-13',
      archived: false,
    });
  });

  it('anonymous callers get 401 on every endpoint and nothing is written', async () => {
    const key = newGameKey();
    await put(t.users.Carter, key, sampleGame());
    const anon = anonymous(t.app);
    expect((await anon({ method: 'GET', url: `${API}/playcounts` })).statusCode).toBe(401);
    expect((await anon({ method: 'GET', url: `${API}/playcounts/${key}` })).statusCode).toBe(401);
    const newKey = newGameKey();
    const anonPut = await anon({
      method: 'PUT',
      url: `${API}/playcounts/${newKey}`,
      payload: sampleGame(),
    });
    expect(anonPut.statusCode).toBe(401);
    expect(await stored(newKey)).toBeUndefined();
    const anonPatch = await anon({
      method: 'PATCH',
      url: `${API}/playcounts/${key}`,
      payload: { archived: true },
    });
    expect(anonPatch.statusCode).toBe(401);
    expect((await stored(key))?.archived).toBe(false);
  });

  it("another signed-in user cannot read, list, replace or archive the coach's game", async () => {
    const key = newGameKey();
    await put(t.users.Carter, key, sampleGame());

    expect((await get(t.users.Parent, key)).statusCode).toBe(404);
    expect((await list(t.users.Parent)).some((g) => g.gameKey === key)).toBe(false);

    const hijack = await put(t.users.Parent, key, sampleGame({ gameName: 'Hijacked' }));
    expect(hijack.statusCode).toBe(403);
    const archive = await patch(t.users.Parent, key, { archived: true });
    expect(archive.statusCode).toBe(404);
    const minimum = await patch(t.users.Parent, key, { minPlays: 3 });
    expect(minimum.statusCode).toBe(404);

    const row = await stored(key);
    expect(row).toMatchObject({
      uid: t.users.Carter.uid,
      archived: false,
      game: { gameName: 'Eagles at Hawks' },
    });
  });

  it('an unknown game answers 404', async () => {
    expect((await get(t.users.Carter, newGameKey())).statusCode).toBe(404);
    expect((await patch(t.users.Carter, newGameKey(), { archived: true })).statusCode).toBe(404);
  });

  it.each([
    ['a missing gameName', sampleGame({ gameName: '' })],
    [
      'a quarter outside 1–4',
      sampleGame({ snaps: [{ snapCount: 1, groupName: 'O', quarter: 5 }] }),
    ],
    [
      'a location other than 1 or 2',
      sampleGame({
        roster: [{ key: 'p', jersey: '1', playerName: 'A', playCount: 0, location: 3 }],
      }),
    ],
    [
      'a negative play count',
      sampleGame({
        roster: [{ key: 'p', jersey: '1', playerName: 'A', playCount: -1, location: 1 }],
      }),
    ],
    [
      'a snap entry that is not true',
      sampleGame({
        snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, p: 'yes' }],
      }),
    ],
    ['no roster', { gameName: 'x', gameDate: 'y', snaps: [] }],
    ['a list instead of a game', ['hello']],
  ])('refuses %s with a clear 400 and writes nothing', async (_what, body) => {
    const key = newGameKey();
    const res = await put(t.users.Carter, key, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/^Invalid request/);
    expect(await stored(key)).toBeUndefined();
  });

  it('refuses a malformed gameKey and bad PATCH bodies with 400', async () => {
    const key = newGameKey();
    await put(t.users.Carter, key, sampleGame());
    expect((await put(t.users.Carter, 'not%20a%20key', sampleGame())).statusCode).toBe(400);
    expect((await patch(t.users.Carter, key, {})).statusCode).toBe(400);
    expect((await patch(t.users.Carter, key, { archived: 'yes' })).statusCode).toBe(400);
    expect((await patch(t.users.Carter, key, { minPlays: -1 })).statusCode).toBe(400);
    expect((await patch(t.users.Carter, key, { gameName: 'renamed' })).statusCode).toBe(400);
    expect((await stored(key))?.game.gameName).toBe('Eagles at Hawks');
  });

  it('Archive sets archived, Restore clears it, and the list carries the flag', async () => {
    const key = newGameKey();
    await put(t.users.Carter, key, sampleGame());
    const archived = await patch(t.users.Carter, key, { archived: true });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ archived: true });
    expect((await list(t.users.Carter)).find((g) => g.gameKey === key)?.archived).toBe(true);

    const restored = await patch(t.users.Carter, key, { archived: false });
    expect(restored.json()).toMatchObject({ archived: false });
    expect((await list(t.users.Carter)).find((g) => g.gameKey === key)?.archived).toBe(false);
  });

  it("a phone re-PUT does not un-archive the coach's archived game, but may archive it", async () => {
    const key = newGameKey();
    await put(t.users.Carter, key, sampleGame());
    await patch(t.users.Carter, key, { archived: true });
    // The phone re-sends its whole game; archived defaults to false in the body.
    expect((await put(t.users.Carter, key, sampleGame())).json()).toMatchObject({
      archived: true,
    });
    expect(
      (await put(t.users.Carter, key, { ...sampleGame(), archived: false })).json(),
    ).toMatchObject({
      archived: true,
    });

    const key2 = newGameKey();
    await put(t.users.Carter, key2, sampleGame());
    expect(
      (await put(t.users.Carter, key2, { ...sampleGame(), archived: true })).json(),
    ).toMatchObject({
      archived: true,
    });
  });

  it('minimum plays: set and cleared by PATCH, kept by a PUT that omits it', async () => {
    const key = newGameKey();
    await put(t.users.Carter, key, sampleGame());
    expect((await patch(t.users.Carter, key, { minPlays: 2 })).json()).toMatchObject({
      minPlays: 2,
    });
    expect((await put(t.users.Carter, key, sampleGame())).json()).toMatchObject({
      minPlays: 2,
    });
    expect((await put(t.users.Carter, key, { ...sampleGame(), minPlays: 4 })).json()).toMatchObject(
      {
        minPlays: 4,
      },
    );
    expect((await patch(t.users.Carter, key, { minPlays: null })).json()).toMatchObject({
      minPlays: null,
    });
  });

  it('lists only my games, newest first; archiving or re-writing does not reorder', async () => {
    const a = newGameKey();
    const b = newGameKey();
    await put(t.users.Carter, a, sampleGame({ gameName: 'First' }));
    await put(t.users.Carter, b, sampleGame({ gameName: 'Second' }));
    await put(t.users.Parent, newGameKey(), sampleGame({ gameName: 'Not yours' }));
    const mine = await list(t.users.Carter);
    expect(mine.some((g) => g.gameName === 'Not yours')).toBe(false);
    const order = async () =>
      (await list(t.users.Carter)).map((g) => g.gameKey).filter((k) => k === a || k === b);
    expect(await order()).toEqual([b, a]);
    await patch(t.users.Carter, a, { archived: true });
    await put(t.users.Carter, a, sampleGame({ gameName: 'First, rewritten' }));
    expect(await order()).toEqual([b, a]);
  });
});
