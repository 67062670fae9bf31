import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { anonymous, API, databaseKinds, newGameOf, type TestUser, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// The server half of the web scorekeeper's outbox (DESIGN §9): idempotency keys, base sequence
// numbers with 409, the seq in every write answer, deleting a game, the owner's history topic
// and the read flag of messages.

interface Top {
  homeScore: number;
  awayScore: number;
  gamePeriod: string;
  gameName: string;
}

describe.each(databaseKinds())('scorekeeping outbox on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper', 'Rival', 'Fan'], listen: true });

  const newGame = (user: TestUser = t.users.Keeper, body: object = {}) => newGameOf(user, body);
  const patch = (gameKey: string, payload: object, key?: string, user = t.users.Keeper) =>
    user.request({
      method: 'PATCH',
      url: `${API}/games/${gameKey}`,
      payload,
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const top = async (gameKey: string) =>
    (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{ top: Top }>().top;
  /** The game topic's sequence number as committed (this node may not have heard of it yet). */
  const gameSeq = async (gameKey: string) =>
    Number(
      (
        await t.db.query<{ seq: number }>('SELECT seq FROM topic_seq WHERE topic = $1', [
          `game:${gameKey}`,
        ])
      )[0]?.seq ?? 0,
    );
  /** Scoreboard writes that changed something: the event log's rows with changes. */
  const historyRows = async (gameKey: string) =>
    Number(
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*) AS n FROM game_events WHERE game_key = $1 AND changes <> '{}'::jsonb`,
          [gameKey],
        )
      )[0]!.n,
    );

  describe('Idempotency-Key', () => {
    it('a replay changes nothing and gets the first answer', async () => {
      const gameKey = await newGame();
      const first = await patch(gameKey, { homeScore: 1 }, 'intent-1');
      expect(first.statusCode).toBe(200);
      const seqAfter = await gameSeq(gameKey);
      // Someone else's change in between: the replay must not put the old value back.
      expect((await patch(gameKey, { homeScore: 5 })).statusCode).toBe(200);
      const again = await patch(gameKey, { homeScore: 1 }, 'intent-1');
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(first.json<{ seq: number }>().seq).toBe(seqAfter);
      expect((await top(gameKey)).homeScore).toBe(5);
      expect(await historyRows(gameKey)).toBe(2);
    });

    it('the same key with another request is refused with 422 and changes nothing', async () => {
      const gameKey = await newGame();
      expect((await patch(gameKey, { homeScore: 1 }, 'k-422')).statusCode).toBe(200);
      const other = await patch(gameKey, { homeScore: 2 }, 'k-422');
      expect(other.statusCode).toBe(422);
      expect(other.json<{ error: string }>().error).toMatch(/Idempotency-Key/);
      expect((await top(gameKey)).homeScore).toBe(1);
      // The same key on another route of the log is another request too.
      const tap = await t.users.Keeper.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/events`,
        payload: { action: { kind: 'score', team: 'home', by: 1 }, device: 'phone-a' },
        headers: { 'idempotency-key': 'k-422' },
      });
      expect(tap.statusCode).toBe(422);
      expect((await top(gameKey)).homeScore).toBe(1);
      // Writes outside the log (comments, tags, the clock) keep their keys apart from it.
      const comment = (gameComment: string) =>
        t.users.Keeper.request({
          method: 'POST',
          url: `${API}/games/${gameKey}/comments`,
          payload: { gameComment },
          headers: { 'idempotency-key': 'c-422' },
        });
      expect((await comment('Goal')).statusCode).toBe(200);
      expect((await comment('Another goal')).statusCode).toBe(422);
    });

    it('concurrent identical requests apply once and all get the same answer', async () => {
      const gameKey = await newGame();
      const before = await gameSeq(gameKey);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.users.Keeper.request({
            method: 'POST',
            url: `${API}/games/${gameKey}/comments`,
            payload: { gameComment: 'Once only' },
            headers: { 'idempotency-key': 'racing-comment' },
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      const bodies = new Set(answers.map((a) => a.body));
      expect(bodies.size).toBe(1);
      const comments = await t.db.query('SELECT id FROM game_comments WHERE game_key = $1', [
        gameKey,
      ]);
      expect(comments).toHaveLength(1);
      expect(await gameSeq(gameKey)).toBe(before + 1);
    });

    it('keys are per user and checked for shape; a comment key is forgotten after 24 h, an event id never', async () => {
      const mine = await newGame();
      const theirs = await newGame(t.users.Rival);
      expect((await patch(mine, { awayScore: 1 }, 'shared-key')).statusCode).toBe(200);
      expect((await patch(theirs, { awayScore: 7 }, 'shared-key', t.users.Rival)).statusCode).toBe(
        200,
      );
      expect((await top(theirs)).awayScore).toBe(7);

      for (const bad of ['', 'has space', 'x'.repeat(101), 'semi;colon']) {
        const res = await t.users.Keeper.request({
          method: 'PATCH',
          url: `${API}/games/${mine}`,
          payload: { awayScore: 9 },
          headers: { 'idempotency-key': bad },
        });
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      }
      expect((await top(mine)).awayScore).toBe(1);

      // A scoreboard write's key is its event's id, kept with the log: a replay a day later
      // is still a replay.
      expect((await patch(mine, { awayScore: 2 })).statusCode).toBe(200);
      expect((await patch(mine, { awayScore: 1 }, 'shared-key')).statusCode).toBe(200);
      expect((await top(mine)).awayScore).toBe(2);

      const comment = (key: string) =>
        t.users.Keeper.request({
          method: 'POST',
          url: `${API}/games/${mine}/comments`,
          payload: { gameComment: 'Once' },
          headers: { 'idempotency-key': key },
        });
      expect((await comment('comment-key')).statusCode).toBe(200);
      await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'
         WHERE key = 'comment-key' AND uid = $1`,
        [t.users.Keeper.uid],
      );
      // Forgotten: the same key and request apply again.
      expect((await comment('comment-key')).statusCode).toBe(200);
      const comments = await t.db.query('SELECT id FROM game_comments WHERE game_key = $1', [mine]);
      expect(comments).toHaveLength(2);
    });

    it('a refusal is not remembered: the same key may carry the rebuilt request', async () => {
      const gameKey = await newGame();
      const base = await gameSeq(gameKey);
      expect((await patch(gameKey, { homeScore: 1 })).statusCode).toBe(200);
      const stale = await patch(gameKey, { homeScore: 1, baseSeq: base }, 'rebuilt');
      expect(stale.statusCode).toBe(409);
      const { seq, state } = stale.json<{ seq: number; state: Top }>();
      const rebuilt = await patch(
        gameKey,
        { homeScore: state.homeScore + 1, baseSeq: seq },
        'rebuilt',
      );
      expect(rebuilt.statusCode).toBe(200);
      expect((await top(gameKey)).homeScore).toBe(2);
    });
  });

  describe('baseSeq and 409', () => {
    it('every write answers the new seq of its topic', async () => {
      const gameKey = await newGame();
      const p = await patch(gameKey, { homeScore: 1 });
      expect(p.json<{ seq: number }>().seq).toBe(await gameSeq(gameKey));
      const c = await t.users.Keeper.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/comments`,
        payload: { gameComment: 'Hi' },
      });
      expect(c.json<{ seq: number }>().seq).toBe(await gameSeq(gameKey));
      const tags = await t.users.Keeper.request({
        method: 'PUT',
        url: `${API}/games/${gameKey}/tags`,
        payload: { tags: ['outboxtest'] },
      });
      expect(tags.json<{ seq: number }>().seq).toBe(await gameSeq(gameKey));
    });

    it('a write touching a field changed after its base gets 409 with the current state', async () => {
      const gameKey = await newGame(t.users.Keeper, { homeScore: 2 });
      const base = await gameSeq(gameKey);
      // The phone app (no base) scores meanwhile.
      expect((await patch(gameKey, { homeScore: 3 })).statusCode).toBe(200);
      const res = await patch(gameKey, { homeScore: 3, baseSeq: base });
      expect(res.statusCode).toBe(409);
      const body = res.json<{ error: string; message: string; seq: number; state: Top }>();
      expect(body.error).toBeTruthy();
      expect(body.message).toContain('homeScore');
      expect(body.seq).toBe(await gameSeq(gameKey));
      expect(body.state).toMatchObject({ gameKey, homeScore: 3 });
      expect((await top(gameKey)).homeScore).toBe(3);
    });

    it('a stale write touching only other fields is accepted; no baseSeq is accepted', async () => {
      const gameKey = await newGame();
      const base = await gameSeq(gameKey);
      expect((await patch(gameKey, { homeScore: 1 })).statusCode).toBe(200);
      const away = await patch(gameKey, { awayScore: 4, baseSeq: base });
      expect(away.statusCode).toBe(200);
      const phone = await patch(gameKey, { homeScore: 9 });
      expect(phone.statusCode).toBe(200);
      expect(await top(gameKey)).toMatchObject({ homeScore: 9, awayScore: 4 });
    });

    it('a client that takes its base from each answer never gets 409 from its own writes', async () => {
      const gameKey = await newGame();
      let base = await gameSeq(gameKey);
      for (let i = 1; i <= 8; i++) {
        const res = await patch(gameKey, { homeScore: i, gamePeriod: `Q${i}`, baseSeq: base });
        expect(res.statusCode, res.body).toBe(200);
        base = res.json<{ seq: number }>().seq;
        // Comments and tags move the topic seq too, without touching scoreboard fields.
        await t.users.Keeper.request({
          method: 'POST',
          url: `${API}/games/${gameKey}/comments`,
          payload: { gameComment: `c${i}` },
        });
      }
      expect((await top(gameKey)).homeScore).toBe(8);
    });

    it('a replayed write whose own effect made its base stale still gets its first answer', async () => {
      const gameKey = await newGame();
      const base = await gameSeq(gameKey);
      const first = await patch(gameKey, { homeScore: 1, baseSeq: base }, 'lost-answer');
      expect(first.statusCode).toBe(200);
      const replay = await patch(gameKey, { homeScore: 1, baseSeq: base }, 'lost-answer');
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(first.json());
    });
  });

  describe('DELETE a game', () => {
    it('owner only: 401, 403, 404; nothing goes', async () => {
      const gameKey = await newGame();
      const del = { method: 'DELETE' as const, url: `${API}/games/${gameKey}` };
      expect((await anonymous(t.app)(del)).statusCode).toBe(401);
      expect((await t.users.Rival.request(del)).statusCode).toBe(403);
      const missing = await t.users.Keeper.request({ ...del, url: `${API}/games/noSuchGame1` });
      expect(missing.statusCode).toBe(404);
      expect((await t.app.inject({ url: `${API}/games/${gameKey}` })).statusCode).toBe(200);
    });

    it('viewers get null, lists and tag counts follow, bookmarks go; a replay answers ok', async () => {
      const gameKey = await newGame(t.users.Keeper, { gameName: 'Doomed' });
      const keep = await newGame(t.users.Keeper, { gameName: 'Kept' });
      const tag = `gone${Date.now()}`;
      for (const key of [gameKey, keep]) {
        await t.users.Keeper.request({
          method: 'PUT',
          url: `${API}/games/${key}/tags`,
          payload: { tags: [tag] },
        });
      }
      const tagKey = (
        await t.users.Keeper.request({
          method: 'PUT',
          url: `${API}/games/${keep}/tags`,
          payload: { tags: [tag] },
        })
      ).json<{ tags: { key: string }[] }>().tags[0]!.key;
      await t.users.Fan.request({
        method: 'PUT',
        url: `${API}/me/favorite-scoreboards/${gameKey}`,
      });
      await t.users.Keeper.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/clock`,
        payload: { formattedTime: '1:00', seconds: 60 },
      });

      const viewer = await TestSocket.open(t.wsUrl);
      const fan = await TestSocket.open(t.wsUrl, { cookie: t.users.Fan.cookie });
      const topics = [`game:${gameKey}`, `clock:${gameKey}`, `tag:${tagKey}`, 'tags'];
      for (const topic of topics) await viewer.subscribe(topic);
      const favTopic = `user:${t.users.Fan.uid}:favorites`;
      const favs = await fan.subscribe(favTopic);
      expect((favs.data as { gameKey: string }[]).map((f) => f.gameKey)).toContain(gameKey);
      const from = viewer.messages.length;
      const fanFrom = fan.messages.length;

      // Sent as the outbox sends it: with the key that makes a retry harmless.
      const deleteGame = async () => {
        const res = await t.users.Keeper.request({
          method: 'DELETE',
          url: `${API}/games/${gameKey}`,
          headers: { 'idempotency-key': 'delete-doomed' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ ok: true });
      };
      await deleteGame();

      // Each waits for the state that shows the deletion: a frame of the tag writes before it
      // may still be on its way (the tag lists are sent at most once an interval).
      await viewer.stateShowing(`game:${gameKey}`, (d) => d === null, from);
      await viewer.stateShowing(`clock:${gameKey}`, (d) => d === null, from);
      type TagState = { tag: { gameCount: number }; games: { gameKey: string }[] };
      const tagState = await viewer.stateShowing<TagState>(
        `tag:${tagKey}`,
        (d) => d.tag.gameCount === 1,
        from,
      );
      expect(tagState.data.games.map((g) => g.gameKey)).toEqual([keep]);
      await viewer.stateShowing<{ newTags: { key: string; gameCount: number }[] }>(
        'tags',
        (d) => d.newTags.find((x) => x.key === tagKey)?.gameCount === 1,
        from,
      );
      await fan.stateShowing<unknown[]>(favTopic, (d) => d.length === 0, fanFrom);

      expect((await t.app.inject({ url: `${API}/games/${gameKey}` })).statusCode).toBe(404);
      const mine = await t.users.Keeper.request({ url: `${API}/me/games` });
      expect(mine.json<{ gameKey: string }[]>().map((g) => g.gameKey)).not.toContain(gameKey);
      const recent = await t.app.inject({ url: `${API}/games/recent` });
      expect(recent.json<{ gameKey: string }[]>().map((g) => g.gameKey)).not.toContain(gameKey);
      const rows = await t.db.query(
        `SELECT 1 FROM favorite_scoreboards WHERE game_key = $1 UNION ALL
         SELECT 1 FROM game_comments WHERE game_key = $1 UNION ALL
         SELECT 1 FROM game_events WHERE game_key = $1`,
        [gameKey],
      );
      expect(rows).toEqual([]);

      // The outbox's retry of the same delete is answered as the first time.
      await deleteGame();
      viewer.close();
      fan.close();
    });
  });

  describe('history topic', () => {
    it('is the owner’s only, and lists changes newest first with from and to', async () => {
      const gameKey = await newGame(t.users.Keeper, { homeScore: 0 });
      const topic = `gamehistory:${gameKey}`;
      const sockets = await Promise.all([
        TestSocket.open(t.wsUrl),
        TestSocket.open(t.wsUrl, { cookie: t.users.Rival.cookie }),
      ]);
      for (const ws of sockets) {
        ws.send({ type: 'subscribe', topic });
        const answer = await ws.waitFor((m) => m.type === 'error' || m.type === 'state');
        expect(answer.type).toBe('error');
        ws.close();
      }
      const owner = await TestSocket.open(t.wsUrl, { cookie: t.users.Keeper.cookie });
      expect((await owner.subscribe(topic)).data).toEqual({ entries: [] });
      const from = owner.messages.length;
      const a = await patch(gameKey, { homeScore: 1, gamePeriod: 'Q2' });
      await patch(gameKey, { homeScore: 1 }); // changes nothing: no entry
      const b = await patch(gameKey, { awayScore: 3 });
      type History = { entries: { seq: number; at: number; changes: Record<string, unknown> }[] };
      const { data } = await owner.stateShowing<History>(
        topic,
        (d) => d.entries.length === 2,
        from,
      );
      expect(data.entries.map((e) => e.seq)).toEqual([
        b.json<{ seq: number }>().seq,
        a.json<{ seq: number }>().seq,
      ]);
      expect(data.entries[0]!.changes).toEqual({ awayScore: { from: 0, to: 3 } });
      expect(data.entries[1]!.changes).toEqual({
        homeScore: { from: 0, to: 1 },
        gamePeriod: { from: 'Starting Soon', to: 'Q2' },
      });
      expect(data.entries[0]!.at).toBeGreaterThan(Date.now() - 60_000);
      owner.close();
    });

    // 205 writes one after another: about 10 s on this box, but over the default 30 s when the
    // other test files load both cores.
    it('shows the last 200 changes of a longer log, which keeps them all', async () => {
      const gameKey = await newGame();
      for (let i = 1; i <= 205; i++) {
        expect((await patch(gameKey, { homeScore: i })).statusCode).toBe(200);
      }
      expect(await historyRows(gameKey)).toBe(205);
      const { data } = await t.app.hub.current(`gamehistory:${gameKey}`);
      const entries = (data as { entries: { changes: { homeScore: { to: number } } }[] }).entries;
      expect(entries).toHaveLength(200);
      expect(entries[0]!.changes.homeScore.to).toBe(205);
      expect(entries[199]!.changes.homeScore.to).toBe(6);
    }, 120_000);
  });

  it("the game's QR code (public) encodes its scoreboard link; an unknown game is 404", async () => {
    const gameKey = await newGame();
    const qr = await t.app.inject({
      url: `${API}/games/${gameKey}/qr.png`,
      headers: { host: 'localhost:3000' },
    });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect(qr.headers['cache-control']).toBe('public, max-age=3600');
    expect(qr.headers['x-robots-tag']).toBe('noindex');
    const img = PNG.sync.read(qr.rawPayload);
    expect(jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data).toBe(
      `http://localhost:3000/apps/sagan/viewscoreboard/${gameKey}`,
    );
    expect((await t.app.inject({ url: `${API}/games/noSuchGame1/qr.png` })).statusCode).toBe(404);
  });

  describe('messages read flag', () => {
    it('the owner marks a message read; others cannot; unknown ids are 404', async () => {
      const gameKey = await newGame();
      const otherGame = await newGame();
      const sent = await t.users.Fan.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/scorekeeper-message`,
        payload: { scoreKeeperMessage: 'Score please' },
      });
      expect(sent.statusCode).toBe(200);
      const list = async () =>
        (await t.users.Keeper.request({ url: `${API}/games/${gameKey}/messages` })).json<{
          messages: { id: string; read: boolean; message: string }[];
        }>().messages;
      const [msg] = await list();
      expect(msg).toMatchObject({ message: 'Score please', read: false });
      const mark = (user: TestUser, game: string, id: string, read = true) =>
        user.request({
          method: 'PATCH',
          url: `${API}/games/${game}/messages/${id}`,
          payload: { read },
        });
      expect((await mark(t.users.Fan, gameKey, msg!.id)).statusCode).toBe(403);
      expect((await mark(t.users.Keeper, otherGame, msg!.id)).statusCode).toBe(404);
      expect((await mark(t.users.Keeper, gameKey, '999999999')).statusCode).toBe(404);
      expect((await mark(t.users.Keeper, gameKey, 'abc')).statusCode).toBe(400);
      expect((await list())[0]!.read).toBe(false);
      const ok = await mark(t.users.Keeper, gameKey, msg!.id);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ id: msg!.id, read: true });
      expect((await list())[0]!.read).toBe(true);
      expect((await mark(t.users.Keeper, gameKey, msg!.id, false)).statusCode).toBe(200);
      expect((await list())[0]!.read).toBe(false);
    });
  });
});
