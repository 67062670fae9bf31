import { describe, expect, it } from 'vitest';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import { API, databaseKinds, tapOn, useTestApp, newGameOf } from './helpers.ts';
import { gameDetailShowing, isState, TestSocket, type StateMessage } from './ws-client.ts';

// DESIGN §10: the line score is a fold of the game's log on its own topic, gamedetail:, read
// by the full board. Games are played through the real events route; the topic's frames are
// what a viewer's socket receives.

describe.each(databaseKinds())('line score topic on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper', 'Rival'], listen: true });

  const newGame = (fields: object) => newGameOf(t.users.Keeper, fields);
  const act = (gameKey: string, action: object, user = t.users.Keeper) =>
    tapOn(user, gameKey, action);
  async function play(gameKey: string, actions: object[]) {
    for (const a of actions) expect((await act(gameKey, a)).statusCode).toBe(200);
  }
  const cells = (d: GameDetail) =>
    d.lineScore.periods.map((p) => `${p.label}:${p.home?.points ?? '-'}-${p.away?.points ?? '-'}`);
  const next = { kind: 'period', step: 1 };
  const score = (team: string, by: number) => ({ kind: 'score', team, by });

  it('a basketball game: points per quarter and overtime, live to a viewer, undo folds out', async () => {
    const gameKey = await newGame({ gameName: 'Rockets v Comets', sportID: 2 });
    const viewer = await TestSocket.open(t.wsUrl);
    const first = await viewer.subscribe(`gamedetail:${gameKey}`);
    expect(cells(first.data as GameDetail)).toEqual(['Q1:0-0', 'Q2:0-0', 'Q3:0-0', 'Q4:0-0']);
    await play(gameKey, [
      next,
      score('home', 2),
      score('away', 3),
      next,
      score('home', 3),
      next,
      score('away', 2),
      next,
      score('home', 2),
      score('away', 2),
      next, // OT
      score('home', 2),
      score('home', 3),
    ]);
    const seen = await gameDetailShowing(
      viewer,
      gameKey,
      (d) => d.lineScore.periods[4]?.home?.points === 5,
    );
    expect((seen.data as GameDetail).lineScore.kind).toBe('points');
    // Undo takes back the last three in overtime; the line score follows the fold.
    const from = viewer.messages.length;
    expect((await act(gameKey, { kind: 'undo' })).statusCode).toBe(200);
    const undone = await gameDetailShowing(viewer, gameKey, () => true, from);
    expect(cells(undone.data as GameDetail)).toEqual([
      'Q1:2-3',
      'Q2:3-0',
      'Q3:0-2',
      'Q4:2-2',
      'OT:2-0',
    ]);
    const game = await t.app.inject({ url: `${API}/games/${gameKey}` });
    expect(game.json<{ top: { homeScore: number; awayScore: number } }>().top).toMatchObject({
      homeScore: 9,
      awayScore: 7,
    });
    // The game: frame stays the scoreboard alone.
    expect(game.body).not.toContain('lineScore');
    viewer.close();
  });

  it('baseball: runs per inning and R H E; a hit or an error moves only the line score', async () => {
    const gameKey = await newGame({ sportID: 7, gamePeriod: 'Top 1st' });
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(`gamedetail:${gameKey}`);
    const out = { kind: 'pitch', call: 'out' };
    await play(gameKey, [
      { kind: 'pitch', call: 'ball' },
      { kind: 'hit' },
      score('away', 1),
      out,
      out,
      out, // Bottom 1st
      { kind: 'error' },
      { kind: 'hit' },
      { kind: 'hit' },
      score('home', 2),
    ]);
    const seen = await gameDetailShowing(viewer, gameKey, (d) => d.lineScore.rhe?.home.runs === 2);
    const line = (seen.data as GameDetail).lineScore;
    expect(line.kind).toBe('innings');
    expect(cells(seen.data as GameDetail).slice(0, 2)).toEqual(['1:2-1', '2:---']);
    expect(line.rhe).toEqual({
      away: { runs: 1, hits: 1, errors: 1 },
      home: { runs: 2, hits: 2, errors: 0 },
    });
    // The hit after a ball started the count over.
    const top = (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{
      top: { balls: number };
    }>().top;
    expect(top.balls).toBe(0);
    viewer.close();
  });

  it('volleyball keeps every set’s score when the scorer confirms the set', async () => {
    const gameKey = await newGame({ sportID: 6, gamePeriod: 'Set 1' });
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(`gamedetail:${gameKey}`);
    await play(gameKey, [
      score('home', 25),
      score('away', 20),
      { kind: 'setWon', team: 'home' },
      score('away', 3),
    ]);
    const seen = await gameDetailShowing(
      viewer,
      gameKey,
      (d) => d.lineScore.periods[1]?.away?.points === 3,
    );
    expect(cells(seen.data as GameDetail)).toEqual(['Set 1:25-20', 'Set 2:0-3']);
    viewer.close();
  });

  it('an unknown or deleted game is null; only the owner writes what it folds', async () => {
    const viewer = await TestSocket.open(t.wsUrl);
    expect((await viewer.subscribe('gamedetail:-nosuchgame')).data).toBeNull();
    const gameKey = await newGame({ sportID: 2 });
    await viewer.subscribe(`gamedetail:${gameKey}`);
    expect((await act(gameKey, score('home', 2), t.users.Rival)).statusCode).toBe(403);
    const del = await t.users.Keeper.request({ method: 'DELETE', url: `${API}/games/${gameKey}` });
    expect(del.statusCode).toBe(200);
    await viewer.waitFor(
      (m): m is StateMessage => isState(`gamedetail:${gameKey}`)(m) && m.data === null,
    );
    viewer.close();
  });
});
