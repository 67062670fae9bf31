import { describe, expect, it } from 'vitest';
import type { Invite } from '@sagan/shared/coscorers';
import type { ServerMessage } from '@sagan/shared/realtime';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import { API, databaseKinds, newGameOf, newTeamWithPlayer, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// Who may be named (DESIGN §10): the public box score never shows more than the public sheet.
// While the linked sheet is unpublished the public reads jersey numbers and no names, and the
// game's scorers (owner, co-scorers) read the names on gamedetailown:. Publishing later names
// the players on open boards; unpublishing takes the names back; the game's copy of the
// published state outlives the sheet, as its privacy option does.

describe.each(databaseKinds())('box score of an unpublished sheet on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Coach', 'Helper', 'Rival'], listen: true });

  const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.users.Coach.request({ method, url: `${API}${url}`, ...(payload ? { payload } : {}) });
  const ok = async <R extends { statusCode: number; body: string }>(res: Promise<R>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(200);
    return r;
  };
  const lines = (d: GameDetail | null) =>
    (d?.boxScore?.home ?? []).map((l) => `#${l.jersey} ${l.name || '-'} ${l.points}`);
  const showing = (ws: TestSocket, topic: string, want: string[]) =>
    ws.stateShowing<GameDetail | null>(
      topic,
      (d) => JSON.stringify(lines(d)) === JSON.stringify(want),
    );

  /** A basketball game whose home team is linked to a new sheet (Sam Park #9) who scored 2. */
  async function scoredGame(publish: boolean) {
    const gameKey = await newGameOf(t.users.Coach, { sportID: 2, gamePeriod: 'Q1' });
    const { teamKey, playerKey: sam } = await newTeamWithPlayer(t.users.Coach);
    if (publish) await ok(call('POST', `/teams/${teamKey}/publish`));
    await ok(call('PUT', `/games/${gameKey}/sheets/home`, { teamKey }));
    await ok(
      call('POST', `/games/${gameKey}/events`, {
        action: { kind: 'score', team: 'home', by: 2, player: sam },
        device: 'phone-a',
      }),
    );
    return { gameKey, teamKey };
  }
  const socketOf = async (user?: 'Coach' | 'Helper' | 'Rival') =>
    TestSocket.open(t.wsUrl, user ? { cookie: t.users[user].cookie } : {});

  it('shows the public numbers only, and the owner and co-scorers the names', async () => {
    const { gameKey } = await scoredGame(false);
    const invite = (await ok(call('POST', `/games/${gameKey}/coscorers`))).json<Invite>();
    await ok(
      t.users.Helper.request({
        method: 'POST',
        url: `${API}/coscorers/redeem`,
        payload: { token: invite.token },
      }),
    );

    const fan = await socketOf();
    const fanState = await fan.subscribe(`gamedetail:${gameKey}`);
    expect(lines(fanState.data as GameDetail)).toEqual(['#9 - 2']);
    expect(JSON.stringify(fanState.data)).not.toContain('Sam');
    // A signed-in stranger is no scorer: the public view, and the scorers' view refused.
    const rival = await socketOf('Rival');
    const rivalState = await rival.subscribe(`gamedetail:${gameKey}`);
    expect(lines(rivalState.data as GameDetail)).toEqual(['#9 - 2']);
    rival.send({ type: 'subscribe', topic: `gamedetailown:${gameKey}` });
    await rival.waitFor(
      (m): m is ServerMessage => m.type === 'error' && m.topic === `gamedetailown:${gameKey}`,
    );
    expect(rival.states(`gamedetailown:${gameKey}`)).toEqual([]);

    for (const user of ['Coach', 'Helper'] as const) {
      const ws = await socketOf(user);
      const own = await ws.subscribe(`gamedetailown:${gameKey}`);
      expect(lines(own.data as GameDetail), user).toEqual(['#9 Sam Park 2']);
      ws.close();
    }
    fan.close();
    rival.close();
  });

  it('names the players once the sheet is published, and no more once it is unpublished', async () => {
    const { gameKey, teamKey } = await scoredGame(false);
    const fan = await socketOf();
    await fan.subscribe(`gamedetail:${gameKey}`);
    await showing(fan, `gamedetail:${gameKey}`, ['#9 - 2']);

    await ok(call('POST', `/teams/${teamKey}/publish`));
    await showing(fan, `gamedetail:${gameKey}`, ['#9 Sam Park 2']);

    const from = fan.messages.length;
    await ok(call('DELETE', `/teams/${teamKey}/publish`));
    await fan.stateShowing<GameDetail | null>(
      `gamedetail:${gameKey}`,
      (d) => JSON.stringify(lines(d)) === '["#9 - 2"]',
      from,
    );
    // A viewer who comes later reads what the sheet shows now: no names.
    const late = await socketOf();
    expect(lines((await late.subscribe(`gamedetail:${gameKey}`)).data as GameDetail)).toEqual([
      '#9 - 2',
    ]);
    fan.close();
    late.close();
  });

  it('keeps the game’s copy when the sheet is deleted: named if it was published, else not', async () => {
    const published = await scoredGame(true);
    const unpublished = await scoredGame(false);
    for (const { teamKey } of [published, unpublished])
      await ok(call('DELETE', `/teams/${teamKey}`));
    const fan = await socketOf();
    const named = await fan.subscribe(`gamedetail:${published.gameKey}`);
    expect(lines(named.data as GameDetail)).toEqual(['#9 Sam Park 2']);
    const numbers = await fan.subscribe(`gamedetail:${unpublished.gameKey}`);
    expect(lines(numbers.data as GameDetail)).toEqual(['#9 - 2']);
    // Its owner still reads the names of the game whose sheet was never published.
    const coach = await socketOf('Coach');
    const own = await coach.subscribe(`gamedetailown:${unpublished.gameKey}`);
    expect(lines(own.data as GameDetail)).toEqual(['#9 Sam Park 2']);
    fan.close();
    coach.close();
  });
});
