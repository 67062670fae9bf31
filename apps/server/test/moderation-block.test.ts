import { localUid } from '../src/auth/local-uid.ts';
import { describe, expect, it } from 'vitest';
import type { ModerationNotice, ModerationQueue } from '@sagan/shared/moderation';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameOwnTopic, type GameOwn } from '@sagan/shared/topics/game-own';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import type { GameSummary } from '@sagan/shared/scoreboard-views';
import { API, anonymous, databaseKinds, newGameOf, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

const ADMIN = 'Moderator Mo';

describe.each(databaseKinds())('blocking a person from public games ($name)', (kind) => {
  const t = useTestApp(kind, {
    users: ['Troll', 'Viewer', ADMIN],
    listen: true,
    config: { adminUids: [localUid(ADMIN)] },
  });
  const admin = (url: string) => t.users[ADMIN].request({ method: 'POST', url: `${API}${url}` });

  it('a blocked person’s games and comments leave every public surface; they cannot create games; unblocking undoes it', async () => {
    const { Troll, Viewer } = t.users;
    const gameKey = await newGameOf(Troll, { gameName: 'Troll game' });
    await Troll.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/comments`,
      payload: { gameComment: 'Troll words' },
    });
    const report = await Viewer.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/report`,
      payload: {},
    });
    expect(report.statusCode).toBe(200);

    // Only an operator may block, and nobody else learns the route exists.
    const trollUid = encodeURIComponent(Troll.uid);
    for (const call of [anonymous(t.app), Viewer.request, Troll.request]) {
      const res = await call({ method: 'POST', url: `${API}/admin/users/${trollUid}/block` });
      expect(res.statusCode).toBe(404);
    }
    const viewer = await TestSocket.open(t.wsUrl, { cookie: Viewer.cookie });
    const recent = await viewer.subscribe(recentGamesTopic.name());
    expect(JSON.stringify(recent.data)).toContain(gameKey);
    await viewer.subscribe(gameTopic.name(gameKey));
    const troll = await TestSocket.open(t.wsUrl, { cookie: Troll.cookie });
    await troll.subscribe(`user:${Troll.uid}:notices`);

    expect((await admin(`/admin/users/${trollUid}/block`)).statusCode).toBe(200);
    // Gone, live, from an open page and list, and from every read.
    await viewer.stateShowing(gameTopic.name(gameKey), (d) => d === null);
    await viewer.stateShowing<GameSummary[]>(
      recentGamesTopic.name(),
      (d) => !d.some((g) => g.gameKey === gameKey),
    );
    const anon = anonymous(t.app);
    expect((await anon({ method: 'GET', url: `${API}/games/${gameKey}` })).statusCode).toBe(404);
    expect((await anon({ method: 'GET', url: `${API}/games/recent` })).body).not.toContain(gameKey);

    // They cannot make a new one, and are told why in words.
    const refused = await Troll.request({
      method: 'POST',
      url: `${API}/games`,
      payload: { gameName: 'Another' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: string }>().error).toMatch(
      /blocked your account from public games/,
    );
    const theirs = await t.db.query('SELECT 1 FROM games WHERE uid = $1', [Troll.uid]);
    expect(theirs.length).toBe(1);

    // They still see their own game, marked hidden, and are told in plain words.
    const own = await troll.subscribe(gameOwnTopic.name(gameKey));
    expect(own.data as GameOwn).toMatchObject({ hidden: true, top: { gameName: 'Troll game' } });
    const mine = await Troll.request({ method: 'GET', url: `${API}/me/games` });
    expect(mine.json()).toEqual([expect.objectContaining({ gameKey, hidden: true })]);
    const told = await troll.stateShowing<ModerationNotice[]>(`user:${Troll.uid}:notices`, (d) =>
      d.some((n) => n.kind === 'blocked'),
    );
    expect(told.data[0]).toMatchObject({ kind: 'blocked' });

    // The queue: the report is answered, the person listed, the log says who and when.
    const queue = (
      await t.users[ADMIN].request({ method: 'GET', url: `${API}/admin/reports` })
    ).json<ModerationQueue>();
    expect(queue.reports).toEqual([]);
    expect(queue.blocked).toEqual([expect.objectContaining({ uid: Troll.uid, name: 'Troll' })]);
    expect(queue.actions[0]).toMatchObject({
      action: 'block',
      target: 'user',
      targetKey: Troll.uid,
      detail: 'Troll',
      adminUid: t.users[ADMIN].uid,
      ownerUid: Troll.uid,
    });

    // Unblocked: everything is back, and they may create games again.
    expect((await admin(`/admin/users/${trollUid}/unblock`)).statusCode).toBe(200);
    await viewer.stateShowing(gameTopic.name(gameKey), (d) => d !== null);
    await troll.stateShowing<ModerationNotice[]>(`user:${Troll.uid}:notices`, (d) =>
      d.some((n) => n.kind === 'unblocked'),
    );
    const back = await anon({ method: 'GET', url: `${API}/games/${gameKey}` });
    expect(back.body).toContain('Troll words');
    const again = await Troll.request({ method: 'POST', url: `${API}/games`, payload: {} });
    expect(again.statusCode).toBe(200);
    expect((await admin('/admin/users/nobody-at-all/block')).statusCode).toBe(404);
    expect((await admin(`/admin/users/${trollUid}/hide`)).statusCode).toBe(400);
    viewer.ws.close();
    troll.ws.close();
  });
});
