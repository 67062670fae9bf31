import { localUid } from '../src/auth/local-uid.ts';
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ModerationNotice, ModerationQueue } from '@sagan/shared/moderation';
import type { GameTopic } from '@sagan/shared/scoreboard-views';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameOwnTopic, type GameOwn } from '@sagan/shared/topics/game-own';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import { API, anonymous, databaseKinds, newGameOf, useTestApp } from './helpers.ts';
import { useSsrBundle } from './ssr-bundle.ts';
import { TestSocket } from './ws-client.ts';

const ADMIN = 'Moderator Mo';

// The server-rendered pages are checked too, with the real SSR bundle (as rendered-pages.test.ts).
const dist = useSsrBundle({
  'index.html':
    '<!doctype html><html><head><title>Sagan</title></head><body><div id="root"></div></body></html>',
});
const RUDE = 'A rude remark about the referee';

describe.each(databaseKinds())('moderation of comments and tags ($name)', (kind) => {
  const t = useTestApp(kind, () => ({
    users: ['Owner', 'Viewer', ADMIN],
    listen: true,
    config: { adminUids: [localUid(ADMIN)], webDist: dist() },
  }));
  let gameKey = '';
  let rudeId = '';
  let keptId = '';
  let tagKey = '';
  const tagName = `mod${crypto.randomBytes(4).toString('hex')}`;
  const admin = (url: string) => t.users[ADMIN].request({ method: 'POST', url: `${API}${url}` });
  const queue = async () =>
    (
      await t.users[ADMIN].request({ method: 'GET', url: `${API}/admin/reports` })
    ).json<ModerationQueue>();
  const page = (path: string) => t.app.inject({ url: `/apps/sagan${path}` });

  it('a signed-in viewer reports a comment once; anonymous callers and unknown comments cannot', async () => {
    const { Owner, Viewer } = t.users;
    gameKey = await newGameOf(Owner, { gameName: 'Commented game' });
    const comment = async (gameComment: string) =>
      (
        await Owner.request({
          method: 'POST',
          url: `${API}/games/${gameKey}/comments`,
          payload: { gameComment },
        })
      ).json<{ id: string }>().id;
    rudeId = await comment(RUDE);
    keptId = await comment('Great save in the second half');
    const tagged = await Owner.request({
      method: 'PUT',
      url: `${API}/games/${gameKey}/tags`,
      payload: { tags: [tagName] },
    });
    tagKey = tagged.json<{ tags: { key: string }[] }>().tags[0]!.key;
    const followed = await Viewer.request({
      method: 'PUT',
      url: `${API}/me/followed-tags/${tagKey}`,
    });
    expect(followed.statusCode).toBe(200);

    const report = (id: string, payload: object = {}, key = gameKey) =>
      Viewer.request({
        method: 'POST',
        url: `${API}/games/${key}/comments/${id}/report`,
        payload,
      });
    expect((await report(rudeId, { reason: 'Insults' })).json()).toEqual({
      ok: true,
      alreadyReported: false,
    });
    expect((await report(rudeId)).json()).toEqual({ ok: true, alreadyReported: true });
    expect((await report(rudeId, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await report('99999999')).statusCode).toBe(404);
    expect((await report('not-a-number')).statusCode).toBe(400);
    // A comment is reported on its own game only.
    expect((await report(rudeId, {}, 'nosuchgame0000000000')).statusCode).toBe(404);
    const anon = await anonymous(t.app)({
      method: 'POST',
      url: `${API}/games/${gameKey}/comments/${rudeId}/report`,
      payload: {},
    });
    expect(anon.statusCode).toBe(401);

    expect((await queue()).reportedComments).toEqual([
      expect.objectContaining({
        commentId: rudeId,
        text: RUDE,
        gameKey,
        gameName: 'Commented game',
        ownerName: 'Owner',
        hidden: false,
        reports: 1,
        reasons: ['Insults'],
      }),
    ]);
  });

  it('the new /admin calls answer 404 to everyone but an operator, and change nothing', async () => {
    const callers = [anonymous(t.app), t.users.Viewer.request, t.users.Owner.request];
    for (const call of callers) {
      for (const url of [
        `${API}/admin/comments/${rudeId}/hide`,
        `${API}/admin/comments/${rudeId}/dismiss`,
        `${API}/admin/tags/${tagKey}/hide`,
      ]) {
        const res = await call({ method: 'POST', url });
        expect(res.statusCode, url).toBe(404);
      }
    }
    const shown = await anonymous(t.app)({ method: 'GET', url: `${API}/games/${gameKey}` });
    expect(shown.body).toContain(RUDE);
    expect(shown.body).toContain(tagName);
  });

  it('a hidden comment is gone from every public surface; its author sees it marked and is told', async () => {
    const { Owner, Viewer } = t.users;
    const viewer = await TestSocket.open(t.wsUrl, { cookie: Viewer.cookie });
    const owner = await TestSocket.open(t.wsUrl, { cookie: Owner.cookie });
    const topic = gameTopic.name(gameKey);
    const before = await viewer.subscribe(topic);
    expect(JSON.stringify(before.data)).toContain(RUDE);
    const boardBefore = await page(`/viewscoreboard/${gameKey}`);
    expect(boardBefore.body).toContain(RUDE);
    const notices = await owner.subscribe(myNoticesTopic.name(Owner.uid));

    expect((await admin(`/admin/comments/${rudeId}/hide`)).statusCode).toBe(200);
    // The open viewer loses it live; the other comment stays.
    const after = await viewer.stateShowing<GameTopic>(
      topic,
      (d) => !!d && !d.comments.some((c) => c.id === rudeId),
    );
    expect(after.data!.comments.map((c) => c.id)).toEqual([keptId]);
    for (const who of [anonymous(t.app), Viewer.request, Owner.request]) {
      const res = await who({ method: 'GET', url: `${API}/games/${gameKey}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(RUDE);
    }
    const board = await page(`/viewscoreboard/${gameKey}`);
    expect(board.statusCode).toBe(200);
    expect(board.body).toContain('Great save');
    expect(board.body).not.toContain(RUDE);
    // Nobody reports what is gone.
    const again = await Viewer.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/comments/${rudeId}/report`,
      payload: {},
    });
    expect(again.statusCode).toBe(404);

    // Its author (the game's scorer) still sees it, marked hidden.
    const own = await owner.subscribe(gameOwnTopic.name(gameKey));
    const mine = (own.data as GameOwn)!.comments.find((c) => c.id === rudeId);
    expect(mine).toMatchObject({ gameComment: RUDE, hidden: true });
    expect((own.data as GameOwn)!.comments.find((c) => c.id === keptId)?.hidden).toBeUndefined();
    // And is told, in plain words.
    const told = await owner.stateShowing<ModerationNotice[]>(
      myNoticesTopic.name(Owner.uid),
      (d) => d.some((n) => n.comment === RUDE),
      notices.seq,
    );
    expect(told.data.find((n) => n.comment === RUDE)).toMatchObject({
      kind: 'hidden',
      gameKey,
      gameName: 'Commented game',
    });

    // The queue: its report is closed, it is listed as hidden, and the log says who and when.
    const q = await queue();
    expect(q.reportedComments).toEqual([]);
    expect(q.hiddenComments).toEqual([
      expect.objectContaining({ commentId: rudeId, text: RUDE, gameKey }),
    ]);
    expect(q.actions[0]).toMatchObject({
      action: 'hide',
      target: 'comment',
      targetKey: rudeId,
      gameKey,
      detail: RUDE,
      adminUid: t.users[ADMIN].uid,
      adminName: ADMIN,
      ownerUid: Owner.uid,
    });
    expect(q.actions[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Restored, it is back for everyone, and the author is told that too.
    expect((await admin(`/admin/comments/${rudeId}/unhide`)).statusCode).toBe(200);
    await viewer.stateShowing<GameTopic>(
      topic,
      (d) => !!d && d.comments.some((c) => c.id === rudeId),
    );
    const restored = await owner.stateShowing<ModerationNotice[]>(
      myNoticesTopic.name(Owner.uid),
      (d) => d.some((n) => n.comment === RUDE && n.kind === 'restored'),
    );
    expect(restored.data.filter((n) => n.comment === RUDE).map((n) => n.kind)).toEqual([
      'restored',
      'hidden',
    ]);
    expect((await page(`/viewscoreboard/${gameKey}`)).body).toContain(RUDE);
    expect((await queue()).hiddenComments).toEqual([]);
    expect((await admin('/admin/comments/99999999/hide')).statusCode).toBe(404);
    expect((await admin(`/admin/comments/${rudeId}/delete`)).statusCode).toBe(400);
    viewer.ws.close();
    owner.ws.close();
  });

  it('a hidden tag is missing everywhere the public looks, as a missing tag is', async () => {
    const { Owner, Viewer } = t.users;
    const anon = anonymous(t.app);
    const missingPage = await page('/taggedscoreboards/nosuchtag00000000000');
    const viewer = await TestSocket.open(t.wsUrl, { cookie: Viewer.cookie });
    const topic = gameTopic.name(gameKey);
    await viewer.subscribe(topic);
    await viewer.stateShowing<GameTopic>(topic, (d) => !!d && d.tags.some((x) => x.key === tagKey));
    expect((await anon({ method: 'GET', url: `${API}/tags` })).body).toContain(tagKey);

    expect((await admin(`/admin/tags/${tagKey}/hide`)).statusCode).toBe(200);
    // Its games' open pages lose it live.
    await viewer.stateShowing<GameTopic>(topic, (d) => !!d && d.tags.length === 0);
    const tagPage = await anon({ method: 'GET', url: `${API}/tags/${tagKey}` });
    expect(tagPage.statusCode).toBe(404);
    expect(tagPage.json()).toEqual(
      (await anon({ method: 'GET', url: `${API}/tags/nosuchtag00000000000` })).json(),
    );
    expect((await page(`/taggedscoreboards/${tagKey}`)).statusCode).toBe(missingPage.statusCode);
    expect((await anon({ method: 'GET', url: `${API}/tags` })).body).not.toContain(tagKey);
    for (const who of [anon, Viewer.request]) {
      const game = await who({ method: 'GET', url: `${API}/games/${gameKey}` });
      expect(game.body).not.toContain(tagName);
    }
    expect((await page(`/viewscoreboard/${gameKey}`)).body).not.toContain(tagName);
    // A follower's list no longer shows it, nor its games through it; nobody can follow it.
    const followed = await Viewer.request({ method: 'GET', url: `${API}/me/followed-tags` });
    expect(followed.json()).toEqual({ tags: [], games: [] });
    const follow = await Owner.request({ method: 'PUT', url: `${API}/me/followed-tags/${tagKey}` });
    expect(follow.statusCode).toBe(404);
    // Its games' scorers still see it on their game, marked hidden.
    const owner = await TestSocket.open(t.wsUrl, { cookie: Owner.cookie });
    const own = await owner.subscribe(gameOwnTopic.name(gameKey));
    expect((own.data as GameOwn)!.tags).toEqual([{ key: tagKey, name: tagName, hidden: true }]);
    const q = await queue();
    expect(q.hiddenTags).toEqual([expect.objectContaining({ tagKey, name: tagName })]);
    expect(q.actions[0]).toMatchObject({
      action: 'hide',
      target: 'tag',
      targetKey: tagKey,
      detail: tagName,
      adminUid: t.users[ADMIN].uid,
      ownerUid: null,
    });

    expect((await admin(`/admin/tags/${tagKey}/unhide`)).statusCode).toBe(200);
    await viewer.stateShowing<GameTopic>(topic, (d) => !!d && d.tags.some((x) => x.key === tagKey));
    expect((await anon({ method: 'GET', url: `${API}/tags/${tagKey}` })).statusCode).toBe(200);
    const back = await Viewer.request({ method: 'GET', url: `${API}/me/followed-tags` });
    expect(back.body).toContain(gameKey);
    expect((await queue()).hiddenTags).toEqual([]);
    expect((await admin('/admin/tags/nosuchtag00000000000/hide')).statusCode).toBe(404);
    expect((await admin(`/admin/tags/${tagKey}/dismiss`)).statusCode).toBe(400);
    viewer.ws.close();
    owner.ws.close();
  });

  it("a hidden game's page opens for its owner and the operators; everyone else gets not found", async () => {
    const { Owner, Viewer } = t.users;
    const hiddenKey = await newGameOf(Owner, { gameName: 'Hidden by URL' });
    expect((await admin(`/admin/games/${hiddenKey}/hide`)).statusCode).toBe(200);
    const url = `/apps/sagan/viewscoreboard/${hiddenKey}`;
    // The shared render says not found, with its status, to the public and to other people.
    for (const res of [await page(`/viewscoreboard/${hiddenKey}`), await Viewer.request({ url })]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Not found');
    }
    // Its owner and an operator get the page their app fills in (marked hidden), never the
    // render that says not found.
    for (const res of [await Owner.request({ url }), await t.users[ADMIN].request({ url })]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"');
      expect(res.body).not.toContain('Not found');
    }
    // A game that does not exist is not found to an operator too.
    const none = await t.users[ADMIN].request({
      url: '/apps/sagan/viewscoreboard/nosuchgame0000000000',
    });
    expect(none.statusCode).toBe(404);
    expect(none.body).toContain('Not found');
  });
});
