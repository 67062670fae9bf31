import { describe, expect, it } from 'vitest';
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

// Baseball's box score: runs and hits per batter. A hit names its batter on the tap or one
// tap after it, checked against the batting team's sheet; the runs are the scoring taps'.

describe.each(databaseKinds())('baseball box score on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Coach'], listen: true });

  const act = (gameKey: string, action: object) => tapOn(t.users.Coach, gameKey, action);
  async function play(gameKey: string, actions: object[]) {
    for (const a of actions) {
      const res = await act(gameKey, a);
      expect(res.statusCode, res.body).toBe(200);
    }
  }
  const lines = (d: GameDetail) =>
    (d.boxScore?.away ?? []).map((l) => `#${l.jersey} ${l.name} R${l.points} H${l.hits ?? 0}`);

  it('credits runs and hits to the batters of the team at bat, live; undo takes a naming back', async () => {
    // Top 1st: the away team, the Lions, bats first.
    const gameKey = await newGameOf(t.users.Coach, {
      sportID: 7,
      gamePeriod: 'Top 1st',
      awayTeamName: 'Lions',
    });
    const { teamKey, playerKey: sam } = await newTeamWithPlayer(t.users.Coach);
    // Published, so the public board names its batters.
    const published = await t.users.Coach.request({
      method: 'POST',
      url: `${API}/teams/${teamKey}/publish`,
    });
    expect(published.statusCode).toBe(200);
    const linked = await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/sheets/away`,
      payload: { teamKey },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(`gamedetail:${gameKey}`);

    await play(gameKey, [
      { kind: 'hit', player: sam },
      { kind: 'hit' },
      { kind: 'scorer', team: 'away', player: sam, tap: 'hit' },
      { kind: 'score', team: 'away', by: 1, player: sam },
    ]);
    const seen = await gameDetailShowing(
      viewer,
      gameKey,
      (d) => lines(d)[0] === '#9 Sam Park R1 H2',
    );
    expect(lines(seen.data as GameDetail)).toEqual(['#9 Sam Park R1 H2']);
    expect((seen.data as GameDetail).lineScore.rhe?.away).toEqual({ runs: 1, hits: 2, errors: 0 });

    // Undo takes back the last event first: the run, then the naming of the second hit.
    await play(gameKey, [{ kind: 'undo' }, { kind: 'undo' }]);
    await gameDetailShowing(viewer, gameKey, (d) => lines(d)[0] === '#9 Sam Park R0 H1');
    viewer.close();
  });

  it('refuses a batter not on the batting team’s sheet, in words, and writes nothing', async () => {
    const gameKey = await newGameOf(t.users.Coach, { sportID: 7, gamePeriod: 'Top 1st' });
    const { teamKey, playerKey: sam } = await newTeamWithPlayer(t.users.Coach);
    const other = await newTeamWithPlayer(t.users.Coach);
    await t.users.Coach.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/sheets/away`,
      payload: { teamKey },
    });
    const before = await eventCount(t.app.db, gameKey);
    const stranger = await act(gameKey, { kind: 'hit', player: other.playerKey });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json<{ error: string }>().error).toMatch(/not on Away's team sheet/);
    // No hit of this device's yet for the away team: nothing to name.
    const early = await act(gameKey, { kind: 'scorer', team: 'away', player: sam, tap: 'hit' });
    expect(early.statusCode).toBe(404);
    expect(early.json<{ error: string }>().error).toMatch(/No hit of yours/);
    expect(await eventCount(t.app.db, gameKey)).toBe(before);

    // The home team bats in the bottom half, and has no sheet: its batter cannot be named.
    await play(gameKey, [
      { kind: 'pitch', call: 'out' },
      { kind: 'pitch', call: 'out' },
      { kind: 'pitch', call: 'out' },
    ]);
    const home = await act(gameKey, { kind: 'hit', player: sam });
    expect(home.statusCode).toBe(400);
    expect(home.json<{ error: string }>().error).toMatch(/Home has no team sheet/);
    expect(await eventCount(t.app.db, gameKey)).toBe(before + 3);
  });
});
