import { localUid } from '../src/auth/local-uid.ts';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ModerationNotice, ModerationQueue } from '@sagan/shared/moderation';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameOwnTopic, type GameOwn } from '@sagan/shared/topics/game-own';
import { API, anonymous, databaseKinds, tapOn, newGameOf, useTestApp } from './helpers.ts';
import { TestSocket, type StateMessage } from './ws-client.ts';

const ADMIN = 'Moderator Mo';

describe.each(databaseKinds())('moderation ($name)', (kind) => {
  const t = useTestApp(kind, {
    users: ['Owner', 'Viewer', 'Scorer', ADMIN],
    listen: true,
    config: { adminUids: [localUid(ADMIN)] },
  });
  let gameKey = '';
  let tagKey = '';

  it('a signed-in viewer reports a game once; anonymous callers cannot', async () => {
    const { Owner, Viewer } = t.users;
    gameKey = await newGameOf(Owner, { gameName: 'Rude name' });
    const tagged = await Owner.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/tags`,
      payload: { tags: [`mod${crypto.randomBytes(4).toString('hex')}`] },
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    tagKey = tagged.json<{ tags: { key: string }[] }>().tags[0]!.key;

    const report = (reason?: string) =>
      Viewer.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/report`,
        payload: reason === undefined ? {} : { reason },
      });
    expect((await report('An insult')).json()).toEqual({ ok: true, alreadyReported: false });
    expect((await report('Again')).json()).toEqual({ ok: true, alreadyReported: true });
    const tooLong = await report('x'.repeat(501));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ error: string }>().error).toMatch(/under 500/);
    const anon = await anonymous(t.app)({
      method: 'POST',
      url: `${API}/games/${gameKey}/report`,
      payload: {},
    });
    expect(anon.statusCode).toBe(401);
    const unknown = await Viewer.request({
      method: 'POST',
      url: `${API}/games/nosuchgame0000000000/report`,
      payload: {},
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('/admin answers 404 to everyone but an operator', async () => {
    const callers = [anonymous(t.app), t.users.Viewer.request, t.users.Owner.request];
    for (const call of callers) {
      for (const req of [
        { method: 'GET' as const, url: `${API}/admin/reports` },
        { method: 'POST' as const, url: `${API}/admin/games/${gameKey}/hide` },
        { method: 'POST' as const, url: `${API}/admin/games/${gameKey}/hide`, payload: {} },
      ]) {
        const res = await call(req);
        expect(res.statusCode, `${req.method} ${req.url}`).toBe(404);
        expect(res.body).not.toContain(gameKey);
      }
    }
    const queue = await t.users[ADMIN].request({ method: 'GET', url: `${API}/admin/reports` });
    expect(queue.statusCode).toBe(200);
    expect(queue.json<ModerationQueue>().reports).toEqual([
      expect.objectContaining({
        gameKey,
        gameName: 'Rude name',
        ownerUid: t.users.Owner.uid,
        ownerName: 'Owner',
        hidden: false,
        reports: 1,
        reasons: ['An insult'],
      }),
    ]);
  });

  it('a hidden game is missing everywhere but to its owner and the operators', async () => {
    const anon = anonymous(t.app);
    const viewerSocket = await TestSocket.open(t.wsUrl, { cookie: t.users.Viewer.cookie });
    const topic = gameTopic.name(gameKey);
    const shown = await viewerSocket.subscribe(topic);
    expect(shown.data).not.toBeNull();
    const detailTopic = gameDetailTopic.name(gameKey);
    const detail = await viewerSocket.subscribe(detailTopic);
    expect(detail.data).not.toBeNull();
    await t.users.Viewer.request({
      method: 'PUT',
      url: `${API}/me/favorite-scoreboards/${gameKey}`,
    });

    const hide = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/${gameKey}/hide`,
    });
    expect(hide.statusCode, hide.body).toBe(200);
    // An open viewer is told at once: the game is gone.
    const gone = await viewerSocket.stateShowing(topic, (d) => d === null);
    expect(gone.seq).toBeGreaterThan(shown.seq);
    // The line score goes with it.
    const detailGone = await viewerSocket.stateShowing(detailTopic, (d) => d === null);
    expect(detailGone.seq).toBeGreaterThan(detail.seq);
    viewerSocket.ws.close();

    for (const url of [
      `${API}/games/${gameKey}`,
      `${API}/games/${gameKey}/qr.png`,
      `${API}/games/${gameKey}/watchers`,
    ]) {
      expect((await anon({ method: 'GET', url })).statusCode, url).toBe(404);
      expect((await t.users.Viewer.request({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    for (const url of [`${API}/games/recent`, `${API}/tags/${tagKey}`, `${API}/tags`]) {
      const res = await anon({ method: 'GET', url });
      expect(res.body, url).not.toContain(gameKey);
    }
    // Its tag counts no games now.
    const tag = await anon({ method: 'GET', url: `${API}/tags/${tagKey}` });
    expect(tag.json<{ tag: { gameCount: number } }>().tag.gameCount).toBe(0);
    const bookmarks = await t.users.Viewer.request({
      method: 'GET',
      url: `${API}/me/favorite-scoreboards`,
    });
    expect(bookmarks.body).not.toContain(gameKey);
    const report = await t.users.Viewer.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/report`,
      payload: {},
    });
    expect(report.statusCode).toBe(404);

    // Its owner still has it, marked hidden; so do the operators.
    const mine = await t.users.Owner.request({ method: 'GET', url: `${API}/me/games` });
    expect(mine.json<{ gameKey: string; hidden?: true }[]>()).toEqual([
      expect.objectContaining({ gameKey, hidden: true }),
    ]);
    for (const who of [t.users.Owner, t.users[ADMIN]]) {
      const own = await who.request({ method: 'GET', url: `${API}/games/${gameKey}` });
      expect(own.statusCode).toBe(200);
    }
    const queue = (
      await t.users[ADMIN].request({ method: 'GET', url: `${API}/admin/reports` })
    ).json<ModerationQueue>();
    expect(queue.reports).toEqual([]);
    expect(queue.hidden.map((h) => h.gameKey)).toEqual([gameKey]);
    expect(queue.actions[0]).toMatchObject({
      action: 'hide',
      gameKey,
      gameName: 'Rude name',
      adminUid: t.users[ADMIN].uid,
      adminName: ADMIN,
      ownerUid: t.users.Owner.uid,
    });
  });

  it('an operator restores a hidden game, and that is logged too', async () => {
    const res = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/${gameKey}/unhide`,
    });
    expect(res.statusCode).toBe(200);
    const anon = anonymous(t.app);
    expect((await anon({ method: 'GET', url: `${API}/games/${gameKey}` })).statusCode).toBe(200);
    expect((await anon({ method: 'GET', url: `${API}/games/recent` })).body).toContain(gameKey);
    const queue = (
      await t.users[ADMIN].request({ method: 'GET', url: `${API}/admin/reports` })
    ).json<ModerationQueue>();
    expect(queue.hidden).toEqual([]);
    expect(queue.actions.map((a) => a.action)).toEqual(['unhide', 'hide']);
    const unknown = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/nosuchgame0000000000/hide`,
    });
    expect(unknown.statusCode).toBe(404);
    const badAction = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/${gameKey}/delete`,
    });
    expect(badAction.statusCode).toBe(400);
  });

  it('its scorers and the operators still see a hidden game, live and marked hidden', async () => {
    const { Owner, Viewer, Scorer } = t.users;
    const key = await newGameOf(Owner, { gameName: 'Kept game', sportID: 2 });
    const invited = await Owner.request({ method: 'POST', url: `${API}/games/${key}/coscorers` });
    const redeemed = await Scorer.request({
      method: 'POST',
      url: `${API}/coscorers/redeem`,
      payload: { token: invited.json<{ token: string }>().token },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const topic = gameOwnTopic.name(key);
    const hidden = await t.users[ADMIN].request({
      method: 'POST',
      url: `${API}/admin/games/${key}/hide`,
    });
    expect(hidden.statusCode).toBe(200);

    // The public topic says "missing"; the scorers' own view shows the game, marked hidden.
    const seers = await Promise.all(
      [Owner, Scorer, t.users[ADMIN]].map((u) => TestSocket.open(t.wsUrl, { cookie: u.cookie })),
    );
    for (const ws of seers) {
      expect((await ws.subscribe(gameTopic.name(key))).data).toBeNull();
      const own = await ws.subscribe(topic);
      expect(own.data).toMatchObject({ top: { gameName: 'Kept game' }, hidden: true });
    }
    const rest = await Scorer.request({ method: 'GET', url: `${API}/games/${key}` });
    expect(rest.statusCode).toBe(200);

    // Anyone else is refused that view.
    for (const headers of [{ cookie: Viewer.cookie }, {}] as Record<string, string>[]) {
      const ws = await TestSocket.open(t.wsUrl, headers);
      expect((await ws.subscribeAnswer(topic)).type).toBe('error');
      ws.ws.close();
    }

    // A write to the game reaches the view at the public topic's sequence number, which the
    // scorekeeper builds its next write on.
    const [owner] = seers;
    const before = owner!.states(topic).at(-1)!.seq;
    const tap = await tapOn(
      Scorer,
      key,
      { kind: 'score', team: 'home', by: 2 },
      {
        device: 'scorer-phone',
      },
    );
    expect(tap.statusCode, tap.body).toBe(200);
    const moved = await owner!.stateShowing<GameOwn>(topic, (d) => d?.top.homeScore === 2);
    expect(moved.seq).toBeGreaterThan(before);
    expect(moved.seq).toBe((await t.app.hub.current(gameTopic.name(key))).seq);

    // Restored, the view says so at once.
    await t.users[ADMIN].request({ method: 'POST', url: `${API}/admin/games/${key}/unhide` });
    const restored = await owner!.stateShowing<GameOwn>(topic, (d) => d?.hidden === false);
    expect(restored.seq).toBeGreaterThan(moved.seq);
    for (const ws of seers) ws.ws.close();
  });

  it('the owner is told when their game is hidden and restored, live, until they dismiss it', async () => {
    const { Owner, Viewer } = t.users;
    const admin = t.users[ADMIN];
    const key = await newGameOf(Owner, { gameName: 'Told game' });
    const topic = myNoticesTopic.name(Owner.uid);
    const ws = await TestSocket.open(t.wsUrl, { cookie: Owner.cookie });
    const first = await ws.subscribe(topic);
    const about = (m: StateMessage) =>
      (m.data as ModerationNotice[]).filter((n) => n.gameKey === key);
    expect(about(first)).toEqual([]);
    const showing = (kinds: string[]) =>
      ws.stateShowing<ModerationNotice[]>(
        topic,
        (d) =>
          d
            .filter((n) => n.gameKey === key)
            .map((n) => n.kind)
            .join() === kinds.join(),
      );

    await admin.request({ method: 'POST', url: `${API}/admin/games/${key}/hide` });
    const told = await showing(['hidden']);
    expect(about(told)).toEqual([
      expect.objectContaining({ kind: 'hidden', gameKey: key, gameName: 'Told game' }),
    ]);
    // A rename does not change what the notice says happened to.
    await Owner.request({
      method: 'PATCH',
      url: `${API}/games/${key}`,
      payload: { gameName: 'Better name' },
    });
    // Hiding it again tells the owner nothing new; restoring it does.
    await admin.request({ method: 'POST', url: `${API}/admin/games/${key}/hide` });
    await admin.request({ method: 'POST', url: `${API}/admin/games/${key}/unhide` });
    const restored = await showing(['restored', 'hidden']);
    expect(about(restored).map((n) => [n.kind, n.gameName])).toEqual([
      ['restored', 'Better name'],
      ['hidden', 'Told game'],
    ]);
    const listed = await Owner.request({ method: 'GET', url: `${API}/me/notices` });
    expect(listed.json<ModerationNotice[]>().filter((n) => n.gameKey === key)).toEqual(
      about(restored),
    );
    // Nobody else sees or dismisses them.
    const others = await Viewer.request({ method: 'GET', url: `${API}/me/notices` });
    expect(others.body).not.toContain(key);
    const [restoredNotice, hiddenNotice] = about(restored);
    const seen = (who: typeof Owner, id: string) =>
      who.request({ method: 'POST', url: `${API}/me/notices/${id}/seen` });
    expect((await seen(Viewer, hiddenNotice!.id)).statusCode).toBe(404);
    expect((await seen(Owner, 'not-a-number')).statusCode).toBe(400);

    expect((await seen(Owner, hiddenNotice!.id)).statusCode).toBe(200);
    const dismissed = await showing(['restored']);
    expect(about(dismissed)).toEqual([restoredNotice]);
    expect((await seen(Owner, hiddenNotice!.id)).statusCode).toBe(404);
    ws.ws.close();
  });
});
