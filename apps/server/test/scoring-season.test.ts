import { describe, expect, it } from 'vitest';
import type { ScoringSeason } from '@sagan/shared/scoring-season';
import {
  API,
  anonymous,
  databaseKinds,
  newGameOf,
  newTeamWithPlayer,
  useTestApp,
} from './helpers.ts';

// A team sheet's season of box scores: the points its players were credited with in every
// game linked to it, totalled, under the sheet's privacy; its owner's to read.

describe.each(databaseKinds())('scoring season on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Coach', 'Rival'] });

  const act = async (gameKey: string, action: object) => {
    const res = await t.users.Coach.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/events`,
      payload: { action, device: 'phone-a' },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  async function linkedGame(teamKey: string, gameName: string) {
    const gameKey = await newGameOf(t.users.Coach, { gameName, sportID: 2, gamePeriod: 'Q1' });
    const res = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/sheets/home`,
      payload: { teamKey },
    });
    expect(res.statusCode, res.body).toBe(200);
    return gameKey;
  }

  it('totals each player’s points over the games linked to the sheet, under its privacy', async () => {
    const { teamKey, playerKey: sam } = await newTeamWithPlayer(t.users.Coach);
    const added = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/players/-1`,
      payload: { jersey: '4', playerName: 'Ann Lee', playerNotes: '' },
    });
    const ann = added.json<{ key: string }>().key;
    const first = await linkedGame(teamKey, 'Week 1');
    await act(first, { kind: 'score', team: 'home', by: 2, player: sam });
    await act(first, { kind: 'score', team: 'home', by: 3, player: ann });
    await act(first, { kind: 'score', team: 'home', by: 2 }); // nobody named
    const second = await linkedGame(teamKey, 'Week 2');
    await act(second, { kind: 'score', team: 'home', by: 3, player: sam });
    await act(second, { kind: 'score', team: 'home', by: 2, player: ann });
    await act(second, { kind: 'undo' }); // Ann's second basket taken back
    // A game not linked to the sheet does not count.
    await newGameOf(t.users.Coach, { sportID: 2 });

    const read = () => t.users.Coach.request({ url: `${API}/scoring-seasons/${teamKey}` });
    const season = (await read()).json<ScoringSeason>();
    expect(season.games.map((g) => `${g.gameName} ${g.sportID}`)).toEqual(['Week 1 2', 'Week 2 2']);
    expect(season.players.map((p) => `#${p.jersey} ${p.name} ${p.points} in ${p.games}`)).toEqual([
      '#9 Sam Park 5 in 2',
      '#4 Ann Lee 3 in 1',
    ]);
    // Each game's points in its column, in the order of the games; none where not scored.
    expect(season.players.map((p) => p.perGame)).toEqual([
      [2, 3],
      [3, null],
    ]);

    const privacy = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/teams/${teamKey}/privacy`,
      payload: { initialsOnly: true, hidePhotos: false },
    });
    expect(privacy.statusCode).toBe(200);
    const initials = (await read()).json<ScoringSeason>();
    expect(initials.players.map((p) => p.name)).toEqual(['S. P.', 'A. L.']);
  });

  it('is its owner’s only: 401 signed out, 404 to anyone else', async () => {
    const { teamKey } = await newTeamWithPlayer(t.users.Coach);
    const url = `${API}/scoring-seasons/${teamKey}`;
    expect((await anonymous(t.app)({ url })).statusCode).toBe(401);
    expect((await t.users.Rival.request({ url })).statusCode).toBe(404);
    const own = await t.users.Coach.request({ url });
    expect(own.statusCode).toBe(200);
    expect(own.json<ScoringSeason>().players).toEqual([]);
  });
});
