import { describe, expect, it } from 'vitest';
import type { GameSummary } from '@sagan/shared/scoreboard-views';
import { API, databaseKinds, tapOn, newGameOf, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// A game created ahead: listed under Upcoming (the dashboard's topic and its tags' pages) and
// kept out of Current Games until its first scoring event; the start is checked in words.

const HOUR = 3_600_000;
type TagState = { games: GameSummary[]; upcoming?: GameSummary[] };
const keys = (games: GameSummary[] | undefined) => (games ?? []).map((g) => g.gameKey);

describe.each(databaseKinds())('scheduled games on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper'], listen: true });

  async function act(gameKey: string, action: object) {
    const res = await tapOn(t.users.Keeper, gameKey, action);
    expect(res.statusCode, res.body).toBe(200);
  }
  const recent = async () =>
    keys((await t.app.inject({ url: `${API}/games/recent` })).json<GameSummary[]>());
  const countRows = async (table: string) =>
    Number(
      (await t.app.db.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n,
    );

  it('stays out of Current Games under Upcoming until its first score, and back on an undo', async () => {
    const startsAt = Date.now() + 2 * HOUR;
    const now = await newGameOf(t.users.Keeper, { gameName: 'Played now', sportID: 2 });
    const later = await newGameOf(t.users.Keeper, { gameName: 'Saturday', sportID: 2, startsAt });
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe('upcoming');
    await viewer.subscribe('games:recent');

    const listed = await viewer.stateShowing<GameSummary[]>('upcoming', (g) =>
      keys(g).includes(later),
    );
    expect(listed.data.find((g) => g.gameKey === later)).toMatchObject({
      gameName: 'Saturday',
      gamePeriod: 'Starting Soon',
      startsAt,
    });
    expect(keys(listed.data)).not.toContain(now);
    expect(await recent()).toContain(now);
    expect(await recent()).not.toContain(later);
    // Renaming it or moving the period is not a score: it is still to begin.
    const edit = await t.users.Keeper.request({
      method: 'PATCH',
      url: `${API}/games/${later}`,
      payload: { gameName: 'Saturday final', gamePeriod: 'Q1' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await recent()).not.toContain(later);

    await act(later, { kind: 'score', team: 'home', by: 2 });
    await viewer.stateShowing<GameSummary[]>('games:recent', (g) => keys(g).includes(later));
    await viewer.stateShowing<GameSummary[]>('upcoming', (g) => !keys(g).includes(later));

    // Its only score taken back, it has not begun after all.
    await act(later, { kind: 'undo' });
    await viewer.stateShowing<GameSummary[]>('upcoming', (g) => keys(g).includes(later));
    expect(await recent()).not.toContain(later);
    viewer.close();
  });

  it("lists it under Upcoming on its tag's page, apart from the tag's games", async () => {
    const startsAt = Date.now() + 3 * HOUR;
    const later = await newGameOf(t.users.Keeper, { gameName: 'Cup tie', startsAt });
    const played = await newGameOf(t.users.Keeper, { gameName: 'Friendly', homeScore: 1 });
    let tagKey = '';
    for (const gameKey of [later, played]) {
      const res = await t.users.Keeper.request({
        method: 'PUT',
        url: `${API}/games/${gameKey}/tags`,
        payload: { tags: ['u12cup'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      tagKey = res.json<{ tags: { key: string }[] }>().tags[0]!.key;
    }
    const page = (await t.app.inject({ url: `${API}/tags/${tagKey}` })).json<TagState>();
    expect(keys(page.upcoming)).toEqual([later]);
    expect(keys(page.games)).toEqual([played]);

    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(`tag:${tagKey}`);
    await act(later, { kind: 'score', team: 'away', by: 1 });
    const begun = await viewer.stateShowing<TagState>(`tag:${tagKey}`, (s) =>
      keys(s.games).includes(later),
    );
    expect(begun.data.upcoming).toBeUndefined();
    viewer.close();
  });

  it('refuses a start already gone or not a time, in words, and writes nothing', async () => {
    const games = await countRows('games');
    for (const startsAt of [Date.now() - 2 * HOUR, 'tomorrow at six', 1.5]) {
      const res = await t.users.Keeper.request({
        method: 'POST',
        url: `${API}/games`,
        payload: { gameName: 'Too late', startsAt },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(
        typeof startsAt === 'number' && startsAt > 2
          ? /The start has already passed/
          : /The start must be a date and time/,
      );
    }
    expect(await countRows('games')).toBe(games);

    // A later move of the start is checked the same way, through the phone apps' PATCH.
    const gameKey = await newGameOf(t.users.Keeper, { startsAt: Date.now() + HOUR });
    const events = await countRows('game_events');
    const late = await t.users.Keeper.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { startsAt: Date.now() - HOUR },
    });
    expect(late.statusCode).toBe(400);
    expect(late.json<{ error: string }>().error).toMatch(/The start has already passed/);
    expect(await countRows('game_events')).toBe(events);
    const moved = Date.now() + 5 * HOUR;
    const ok = await t.users.Keeper.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload: { startsAt: moved },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const game = (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{
      top: { startsAt?: number };
    }>();
    expect(game.top.startsAt).toBe(moved);
  });

  it('leaves a game made without a start as the phone apps have always made it', async () => {
    const gameKey = await newGameOf(t.users.Keeper, { gameName: 'No start' });
    const mine = (await recent()).includes(gameKey);
    expect(mine).toBe(true);
    const card = (await t.app.inject({ url: `${API}/games/recent` }))
      .json<GameSummary[]>()
      .find((g) => g.gameKey === gameKey);
    expect(card).not.toHaveProperty('startsAt');
  });
});
