import { describe, expect, it } from 'vitest';
import type { GameSheets } from '@sagan/shared/game-sheets';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import {
  API,
  databaseKinds,
  tapOn,
  newGameOf,
  newTeamWithPlayer,
  useTestApp,
  eventCount,
} from './helpers.ts';
import { gameDetailShowing, TestSocket } from './ws-client.ts';
import { loadGameHistory } from '../src/routes/scoreboards/repo.ts';

// DESIGN §10 "who scored": a game's team linked to a team sheet, scoring taps that name a
// player (on the tap, or one tap after it), the box score on gamedetail: as a viewer's socket
// receives it, under the game's copy of the sheet's privacy, which outlives the sheet.

describe.each(databaseKinds())('box score on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Coach', 'Rival'], listen: true });

  const act = (gameKey: string, action: object, device = 'phone-a', user = t.users.Coach) =>
    tapOn(user, gameKey, action, { device });
  const link = (gameKey: string, side: string, teamKey: string | null, user = t.users.Coach) =>
    user.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/sheets/${side}`,
      payload: { teamKey },
    });
  /** A published sheet of the coach's with Ann Lee (#4) and Bo Diaz (#7), public by name. */
  async function lionsSheet() {
    const { teamKey, playerKey: sam } = await newTeamWithPlayer(t.users.Coach);
    const published = await t.users.Coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(published.statusCode).toBe(200);
    const add = async (jersey: string, playerName: string) => {
      const res = await t.users.Coach.request({
        method: 'PUT',
        url: `${API}/teams/${teamKey}/players/-1`,
        payload: { jersey, playerName, playerNotes: '' },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ key: string }>().key;
    };
    return { teamKey, sam, ann: await add('4', 'Ann Lee'), bo: await add('7', 'Bo Diaz') };
  }
  const names = (d: GameDetail) =>
    (d.boxScore?.home ?? []).map((l) => `#${l.jersey} ${l.name} ${l.points}`);

  it('credits taps to players live, by the tap or one tap after it; undo takes the credit back', async () => {
    const gameKey = await newGameOf(t.users.Coach, {
      sportID: 2,
      gamePeriod: 'Q1',
      homeTeamName: 'Lions',
    });
    const sheet = await lionsSheet();
    const linked = await link(gameKey, 'home', sheet.teamKey);
    expect(linked.statusCode).toBe(200);
    const sheets = linked.json<GameSheets>();
    expect(sheets.away).toBeNull();
    expect(sheets.home?.players.map((p) => `${p.jersey} ${p.playerName}`)).toEqual([
      '4 Ann Lee',
      '7 Bo Diaz',
      '9 Sam Park',
    ]);

    const viewer = await TestSocket.open(t.wsUrl);
    const first = await viewer.subscribe(`gamedetail:${gameKey}`);
    expect((first.data as GameDetail).boxScore).toEqual({ home: [] });
    expect(
      (await act(gameKey, { kind: 'score', team: 'home', by: 2, player: sheet.ann })).statusCode,
    ).toBe(200);
    expect((await act(gameKey, { kind: 'score', team: 'home', by: 3 })).statusCode).toBe(200);
    expect(
      (await act(gameKey, { kind: 'scorer', team: 'home', player: sheet.bo })).statusCode,
    ).toBe(200);
    expect((await act(gameKey, { kind: 'score', team: 'home', by: 2 })).statusCode).toBe(200);
    expect(
      (await act(gameKey, { kind: 'scorer', team: 'home', player: sheet.ann })).statusCode,
    ).toBe(200);
    const seen = await gameDetailShowing(viewer, gameKey, (d) => names(d)[0] === '#4 Ann Lee 4');
    expect(names(seen.data as GameDetail)).toEqual(['#4 Ann Lee 4', '#7 Bo Diaz 3']);
    // The scorers' Changes list says who scored, by the sheet's name.
    const history = await loadGameHistory(t.app.db, gameKey);
    const said = history!.entries.slice(0, 5).map((e) => [e.kind, e.team, e.player ?? null]);
    expect(said).toEqual([
      ['scorer', 'home', 'Ann Lee'],
      ['score', 'home', 'Ann Lee'],
      ['scorer', 'home', 'Bo Diaz'],
      ['score', 'home', 'Bo Diaz'],
      ['score', 'home', 'Ann Lee'],
    ]);
    // Undo takes back the naming first: the 2 stays on the board, as nobody's.
    const from = viewer.messages.length;
    expect((await act(gameKey, { kind: 'undo' })).statusCode).toBe(200);
    const undone = await gameDetailShowing(viewer, gameKey, () => true, from);
    expect(names(undone.data as GameDetail)).toEqual(['#7 Bo Diaz 3', '#4 Ann Lee 2']);
    const board = await t.app.inject({ url: `${API}/games/${gameKey}` });
    expect(board.json<{ top: { homeScore: number } }>().top.homeScore).toBe(7);
    // The game: frame carries no box score.
    const game = await viewer.subscribe(`game:${gameKey}`);
    expect(JSON.stringify(game.data)).not.toContain('Ann');
    viewer.close();
  });

  it('refuses a player not on the sheet, a side with no sheet, and a naming with no tap, writing nothing', async () => {
    const gameKey = await newGameOf(t.users.Coach, {
      sportID: 2,
      gamePeriod: 'Q1',
      homeTeamName: 'Lions',
      awayTeamName: 'Tigers',
    });
    const sheet = await lionsSheet();
    expect((await link(gameKey, 'home', sheet.teamKey)).statusCode).toBe(200);
    const before = await eventCount(t.app.db, gameKey);
    const stranger = await act(gameKey, {
      kind: 'score',
      team: 'home',
      by: 2,
      player: 'NoSuchKid',
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json<{ error: string }>().error).toBe(
      "That player is not on Lions's team sheet for this game",
    );
    const away = await act(gameKey, { kind: 'score', team: 'away', by: 2, player: sheet.ann });
    expect(away.statusCode).toBe(400);
    expect(away.json<{ error: string }>().error).toBe(
      'Tigers has no team sheet linked to this game, so no player can score',
    );
    const noTap = await act(gameKey, { kind: 'scorer', team: 'home', player: sheet.ann });
    expect(noTap.statusCode).toBe(404);
    const badKey = await act(gameKey, { kind: 'scorer', team: 'home', player: 'a b' });
    expect(badKey.statusCode).toBe(400);
    // Another phone's tap is not this phone's to name.
    expect((await act(gameKey, { kind: 'score', team: 'home', by: 2 }, 'phone-b')).statusCode).toBe(
      200,
    );
    expect(
      (await act(gameKey, { kind: 'scorer', team: 'home', player: sheet.ann })).statusCode,
    ).toBe(404);
    expect(await eventCount(t.app.db, gameKey)).toBe(before + 1);
    const game = await t.app.inject({ url: `${API}/games/${gameKey}` });
    expect(game.json<{ top: { homeScore: number; awayScore: number } }>().top).toMatchObject({
      homeScore: 2,
      awayScore: 0,
    });
  });

  it('links only the owner’s game to the owner’s sheet; scorers read the sheets, others do not', async () => {
    const gameKey = await newGameOf(t.users.Coach, { sportID: 2 });
    const sheet = await lionsSheet();
    const rivalTeam = await newTeamWithPlayer(t.users.Rival);
    expect((await link(gameKey, 'home', sheet.teamKey, t.users.Rival)).statusCode).toBe(403);
    const notMine = await link(gameKey, 'home', rivalTeam.teamKey);
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json<{ error: string }>().error).toBe('No team sheet of yours with this key');
    expect((await link(gameKey, 'middle', sheet.teamKey)).statusCode).toBe(400);
    const read = (user = t.users.Coach) =>
      user.request({ method: 'GET', url: `${API}/games/${gameKey}/sheets` });
    expect((await read(t.users.Rival)).statusCode).toBe(403);
    expect((await read()).json<GameSheets>()).toEqual({ home: null, away: null });
    expect((await link(gameKey, 'away', sheet.teamKey)).statusCode).toBe(200);
    expect((await read()).json<GameSheets>().away?.teamKey).toBe(sheet.teamKey);
    expect((await link(gameKey, 'away', null)).json<GameSheets>().away).toBeNull();
  });

  it('names follow the sheet’s initials option, and stay when the sheet is deleted', async () => {
    const gameKey = await newGameOf(t.users.Coach, { sportID: 2, gamePeriod: 'Q1' });
    const sheet = await lionsSheet();
    expect((await link(gameKey, 'home', sheet.teamKey)).statusCode).toBe(200);
    expect(
      (await act(gameKey, { kind: 'score', team: 'home', by: 3, player: sheet.ann })).statusCode,
    ).toBe(200);
    const viewer = await TestSocket.open(t.wsUrl);
    const first = await viewer.subscribe(`gamedetail:${gameKey}`);
    expect(names(first.data as GameDetail)).toEqual(['#4 Ann Lee 3']);
    const privacy = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${sheet.teamKey}/privacy`,
      payload: { initialsOnly: true, hidePhotos: false },
    });
    expect(privacy.statusCode).toBe(200);
    await gameDetailShowing(viewer, gameKey, (d) => names(d)[0] === '#4 A. L. 3');
    const deleted = await t.users.Coach.request({
      method: 'DELETE',
      url: `${API}/teams/${sheet.teamKey}`,
    });
    expect(deleted.statusCode).toBe(200);
    // A new viewer still gets the scorers, still as initials.
    const late = await TestSocket.open(t.wsUrl);
    const state = await late.subscribe(`gamedetail:${gameKey}`);
    expect(names(state.data as GameDetail)).toEqual(['#4 A. L. 3']);
    viewer.close();
    late.close();
  });
});
