import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import type { Invite, ScoringList } from '@sagan/shared/coscorers';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { API, databaseKinds, newGameOf, type TestUser, useTestApp } from './helpers.ts';
import { tableVersions } from './security-world.ts';
import { TestSocket } from './ws-client.ts';

// DESIGN §10 co-scorers through the real server: an invitation redeemed once and bound to the
// account that redeemed it; what a co-scorer may and may not do, on the web's cookie session
// and the phone apps' Bearer API alike; revocation on the next request and on open screens.

const CLIENT_ID = 'sagan-coscorer-test.apps.googleusercontent.com';
const ISSUER = 'https://accounts.google.com';

describe.each(databaseKinds())('co-scorers on $name', (kind) => {
  // Google's servers are the one stand-in: a JWKS with a key this test made, for Bearer tokens.
  let jwks: http.Server;
  let jwksUrl = '';
  let signingKey: CryptoKey;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/certs`;
  });
  afterAll(() => jwks.close());

  const t = useTestApp(kind, () => ({
    users: ['Owner', 'Scorer', 'Stranger'],
    listen: true,
    config: { google: { clientId: CLIENT_ID, jwksUrl, issuers: [ISSUER] } },
  }));

  const call = (
    user: TestUser,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => user.request({ method, url: `${API}${url}`, ...(payload === undefined ? {} : { payload }) });

  const newGame = (name = 'Rockets v Comets') =>
    newGameOf(t.users.Owner, { gameName: name, sportID: 2 });
  async function invite(path: string, owner = t.users.Owner): Promise<Invite> {
    const res = await call(owner, 'POST', `${path}/coscorers`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Invite>();
  }
  const redeem = (user: TestUser, token: string) =>
    call(user, 'POST', '/coscorers/redeem', { token });
  async function withScorer(path: string, user = t.users.Scorer): Promise<void> {
    const res = await redeem(user, (await invite(path)).token);
    expect(res.statusCode, res.body).toBe(200);
  }
  const tap = (user: TestUser, gameKey: string, device = 'scorer-phone') =>
    call(user, 'POST', `/games/${gameKey}/events`, {
      action: { kind: 'score', team: 'home', by: 2 },
      device,
    });
  const top = async (gameKey: string) =>
    (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{ top: ScoreboardFields }>().top;
  const list = async (gameKey: string, kindPath = 'games') =>
    (await call(t.users.Owner, 'GET', `/${kindPath}/${gameKey}/coscorers`)).json<{
      coscorers: { id: string; name: string | null }[];
      invites: { id: string }[];
    }>();

  async function newSideline(): Promise<{ gameKey: string; playerKey: string }> {
    const team = await call(t.users.Owner, 'POST', '/teams');
    const { teamKey } = team.json<{ teamKey: string }>();
    const player = await call(t.users.Owner, 'PUT', `/teams/${teamKey}/players/-1`, {
      jersey: '7',
      playerName: 'Ann Lee',
      playerNotes: '',
    });
    const playerKey = player.json<{ key: string }>().key;
    const res = await call(t.users.Owner, 'POST', '/playcounts', {
      teamKey,
      gameName: 'Saturday',
      gameDate: '2026-09-05',
    });
    expect(res.statusCode, res.body).toBe(201);
    return { gameKey: res.json<{ gameKey: string }>().gameKey, playerKey };
  }

  it('an invitation is redeemed once, bound to that account, and listed with its name', async () => {
    const gameKey = await newGame();
    const inv = await invite(`/games/${gameKey}`);
    expect(inv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await list(gameKey)).invites.map((i) => i.id)).toEqual([inv.id]);
    // Only a hash of the link's secret is stored.
    expect(JSON.stringify(await t.db.query('SELECT * FROM coscorers'))).not.toContain(inv.token);

    const first = await redeem(t.users.Scorer, inv.token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ kind: 'game', gameKey, gameName: 'Rockets v Comets' });
    // The same account again (a retry after a lost answer) gets the same answer...
    expect((await redeem(t.users.Scorer, inv.token)).json()).toEqual(first.json());
    // ...anyone else is refused, and gains nothing.
    const before = await tableVersions(t.db);
    const second = await redeem(t.users.Stranger, inv.token);
    expect(second.statusCode).toBe(409);
    expect(second.json<{ error: string }>().error).toMatch(/already used/);
    expect(await tableVersions(t.db)).toBe(before);
    expect((await tap(t.users.Stranger, gameKey)).statusCode).toBe(403);

    expect(await list(gameKey)).toEqual({
      coscorers: [{ id: inv.id, name: 'Scorer', since: expect.any(Number) }],
      invites: [],
    });
  });

  it('a wrong, malformed or expired link is refused; the owner cannot redeem their own', async () => {
    const gameKey = await newGame();
    const wrong = await redeem(t.users.Scorer, 'A'.repeat(43));
    expect(wrong.statusCode).toBe(404);
    expect((await redeem(t.users.Scorer, 'short')).statusCode).toBe(400);

    const expired = await invite(`/games/${gameKey}`);
    await t.db.query('UPDATE coscorers SET expires_at = $2 WHERE id = $1', [
      expired.id,
      Date.now() - 1,
    ]);
    const late = await redeem(t.users.Scorer, expired.token);
    expect(late.statusCode).toBe(404);
    expect(late.json<{ error: string }>().error).toMatch(/expired/);
    // Expired invitations are no longer listed.
    expect((await list(gameKey)).invites).toEqual([]);

    const own = await invite(`/games/${gameKey}`);
    const mine = await redeem(t.users.Owner, own.token);
    expect(mine.statusCode).toBe(409);
    // Still unused: it can go to someone else.
    expect((await redeem(t.users.Scorer, own.token)).statusCode).toBe(200);
    // A second link to a game one already scores stays unused too.
    const again = await invite(`/games/${gameKey}`);
    expect((await redeem(t.users.Scorer, again.token)).statusCode).toBe(409);
    expect((await list(gameKey)).invites.map((i) => i.id)).toEqual([again.id]);

    const anonymous = await t.app.inject({
      method: 'POST',
      url: `${API}/coscorers/redeem`,
      headers: { 'x-sagan-request': '1' },
      payload: { token: again.token },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a co-scorer scores, edits, runs the clock and undoes their own tap; every event says who', async () => {
    const gameKey = await newGame();
    await withScorer(`/games/${gameKey}`);
    const { Scorer, Owner } = t.users;
    expect((await tap(Owner, gameKey, 'owner-phone')).statusCode).toBe(200);
    expect((await tap(Scorer, gameKey)).statusCode).toBe(200);
    expect((await top(gameKey)).homeScore).toBe(4);
    const edit = await call(Scorer, 'PATCH', `/games/${gameKey}`, {
      awayScore: 3,
      gamePeriod: '2',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const clock = await call(Scorer, 'POST', `/games/${gameKey}/clock/control`, {
      action: 'start',
    });
    expect(clock.statusCode, clock.body).toBe(200);
    const tick = await call(Scorer, 'POST', `/games/${gameKey}/clock`, {
      formattedTime: '11:00',
      seconds: 660,
    });
    expect(tick.statusCode, tick.body).toBe(200);
    // The scoreboard's other fields, the name unchanged, are theirs to send.
    const same = await call(Scorer, 'PATCH', `/games/${gameKey}`, {
      gameName: 'Rockets v Comets',
      homeTeamName: 'Rockets',
    });
    expect(same.statusCode, same.body).toBe(200);

    const undo = await call(Scorer, 'POST', `/games/${gameKey}/events`, {
      action: { kind: 'undo' },
      device: 'scorer-phone',
    });
    expect(undo.statusCode, undo.body).toBe(200);
    // Undo took back this device's own last tap; the phone API's edits name no device.
    expect((await top(gameKey)).homeScore).toBe(2);
    const events = await t.db.query<{ uid: string; kind: string }>(
      `SELECT uid, body->>'kind' AS kind FROM game_events
        WHERE game_key = $1 AND answer IS NOT NULL ORDER BY seq`,
      [gameKey],
    );
    expect(events).toEqual([
      { uid: Owner.uid, kind: 'score' },
      { uid: Scorer.uid, kind: 'score' },
      { uid: Scorer.uid, kind: 'set' },
      { uid: Scorer.uid, kind: 'set' },
      { uid: Scorer.uid, kind: 'void' },
    ]);
    // The Changes list names them.
    const ws = await TestSocket.open(t.wsUrl, { cookie: Scorer.cookie });
    const history = await ws.subscribe(`gamehistory:${gameKey}`);
    const entries = (history.data as { entries: { by?: string | null }[] }).entries;
    expect(entries.map((e) => e.by)).toContain('Scorer');
    ws.ws.close();
  });

  it('a co-scorer is refused everything else, and the refusal changes nothing', async () => {
    const gameKey = await newGame();
    await withScorer(`/games/${gameKey}`);
    const { Scorer, Owner } = t.users;
    const ownerTap = await tap(Owner, gameKey, 'owner-phone');
    const ownerEvent = ownerTap.json<{ eventId: string }>().eventId;
    const { coscorers } = await list(gameKey);
    const forbidden: Array<[string, () => Promise<{ statusCode: number }>]> = [
      ['rename (PATCH)', () => call(Scorer, 'PATCH', `/games/${gameKey}`, { gameName: 'Mine' })],
      ['delete', () => call(Scorer, 'DELETE', `/games/${gameKey}`)],
      ['tags', () => call(Scorer, 'PUT', `/games/${gameKey}/tags`, { tags: ['mine'] })],
      ['comment', () => call(Scorer, 'POST', `/games/${gameKey}/comments`, { gameComment: 'x' })],
      ['messages', () => call(Scorer, 'GET', `/games/${gameKey}/messages`)],
      ['invite', () => call(Scorer, 'POST', `/games/${gameKey}/coscorers`)],
      ['list co-scorers', () => call(Scorer, 'GET', `/games/${gameKey}/coscorers`)],
      [
        'revoke (even themselves)',
        () => call(Scorer, 'DELETE', `/games/${gameKey}/coscorers/${coscorers[0]!.id}`),
      ],
      [
        "void the owner's event",
        () =>
          call(Scorer, 'POST', `/games/${gameKey}/events`, {
            action: { kind: 'void', target: ownerEvent },
            device: 'scorer-phone',
          }),
      ],
    ];
    for (const [what, attempt] of forbidden) {
      const before = await tableVersions(t.db);
      const res = await attempt();
      expect(res.statusCode, what).toBe(403);
      expect(await tableVersions(t.db), `${what} changed rows`).toBe(before);
    }
    // Sharing is reading the public link: nothing to refuse. The owner's own rights are intact.
    expect((await call(Owner, 'PUT', `/games/${gameKey}/tags`, { tags: ['ok'] })).statusCode).toBe(
      200,
    );
  });

  it('revoking takes effect on the next request and tells their open screen', async () => {
    const gameKey = await newGame();
    await withScorer(`/games/${gameKey}`);
    const { Scorer, Owner } = t.users;
    const ws = await TestSocket.open(t.wsUrl, { cookie: Scorer.cookie });
    const topic = `user:${Scorer.uid}:scoring`;
    const first = await ws.subscribe(topic);
    expect((first.data as ScoringList).games).toContainEqual({
      gameKey,
      gameName: 'Rockets v Comets',
      ownerName: 'Owner',
    });
    expect((await tap(Scorer, gameKey)).statusCode).toBe(200);

    const from = ws.messages.length;
    const { coscorers } = await list(gameKey);
    const revoke = await call(Owner, 'DELETE', `/games/${gameKey}/coscorers/${coscorers[0]!.id}`);
    expect(revoke.statusCode, revoke.body).toBe(200);
    await ws.stateShowing<ScoringList>(
      topic,
      (d) => !d.games.some((g) => g.gameKey === gameKey),
      from,
    );

    const before = await tableVersions(t.db);
    expect((await tap(Scorer, gameKey)).statusCode).toBe(403);
    expect(
      (await call(Scorer, 'POST', `/games/${gameKey}/clock/control`, { action: 'stop' }))
        .statusCode,
    ).toBe(403);
    expect(await tableVersions(t.db)).toBe(before);
    expect((await list(gameKey)).coscorers).toEqual([]);
    // Revoking again: nothing left with that id.
    const twice = await call(Owner, 'DELETE', `/games/${gameKey}/coscorers/${coscorers[0]!.id}`);
    expect(twice.statusCode).toBe(404);
    // Their changes list is closed to them now.
    expect((await ws.subscribeAnswer(`gamehistory:${gameKey}`)).type).toBe('error');
    ws.ws.close();
  });

  it("the phone apps' Bearer API: redeem, score, and refusals alike", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ name: 'Phone Scorer' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('phone-coscorer')
      .setIssuer(ISSUER)
      .setAudience(CLIENT_ID)
      .setIssuedAt(now - 10)
      .setExpirationTime(now + 3600)
      .sign(signingKey);
    const bearer = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `${API}${url}`,
        headers: { authorization: `Bearer ${token}` },
        ...(payload === undefined ? {} : { payload }),
      });
    const gameKey = await newGame();
    expect((await bearer('PATCH', `/games/${gameKey}`, { homeScore: 1 })).statusCode).toBe(403);
    const inv = await invite(`/games/${gameKey}`);
    const redeemed = await bearer('POST', '/coscorers/redeem', { token: inv.token });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect((await list(gameKey)).coscorers.map((c) => c.name)).toEqual(['Phone Scorer']);

    const scored = await bearer('PATCH', `/games/${gameKey}`, { homeScore: 7, awayScore: 5 });
    expect(scored.statusCode, scored.body).toBe(200);
    expect(await top(gameKey)).toMatchObject({ homeScore: 7, awayScore: 5 });
    const [event] = await t.db.query<{ uid: string }>(
      `SELECT uid FROM game_events WHERE game_key = $1 ORDER BY seq DESC LIMIT 1`,
      [gameKey],
    );
    expect(event?.uid).toBe('phone-coscorer');
    expect((await bearer('PATCH', `/games/${gameKey}`, { gameName: 'Phone' })).statusCode).toBe(
      403,
    );
    expect((await bearer('DELETE', `/games/${gameKey}`)).statusCode).toBe(403);

    const { coscorers } = await list(gameKey);
    await call(t.users.Owner, 'DELETE', `/games/${gameKey}/coscorers/${coscorers[0]!.id}`);
    expect((await bearer('PATCH', `/games/${gameKey}`, { homeScore: 8 })).statusCode).toBe(403);
    expect((await top(gameKey)).homeScore).toBe(7);
  });

  it('a play count: a co-scorer snaps, undoes and watches it; never shares, invites or archives', async () => {
    const { gameKey, playerKey } = await newSideline();
    const { Scorer, Owner, Stranger } = t.users;
    // Before the invitation the count is hidden from them as from anyone.
    const snap = (user: TestUser) =>
      call(user, 'POST', `/playcounts/${gameKey}/snaps`, { quarter: 1, players: [playerKey] });
    expect((await snap(Scorer)).statusCode).toBe(404);
    await withScorer(`/playcounts/${gameKey}`);
    expect((await list(gameKey, 'playcounts')).coscorers.map((c) => c.name)).toEqual(['Scorer']);

    const ws = await TestSocket.open(t.wsUrl, { cookie: Scorer.cookie });
    const watched = await ws.subscribe(`playcount:${gameKey}`);
    expect(watched.data).toMatchObject({ gameKey, gameName: 'Saturday' });
    const scoring = await ws.subscribe(`user:${Scorer.uid}:scoring`);
    expect((scoring.data as ScoringList).playCounts.map((p) => p.gameKey)).toContain(gameKey);

    const from = ws.messages.length;
    expect((await snap(Scorer)).statusCode).toBe(201);
    expect((await snap(Owner)).statusCode).toBe(201);
    await ws.stateShowing<{ snaps: unknown[] }>(
      `playcount:${gameKey}`,
      (d) => d.snaps.length === 2,
      from,
    );
    const read = await call(Scorer, 'GET', `/playcounts/${gameKey}`);
    expect(read.statusCode).toBe(200);
    expect(read.json<{ snaps: unknown[] }>().snaps).toHaveLength(2);
    expect((await call(Scorer, 'DELETE', `/playcounts/${gameKey}/snaps/last`)).statusCode).toBe(
      200,
    );
    const events = await t.db.query<{ uid: string; kind: string }>(
      `SELECT uid, body->>'kind' AS kind FROM playcount_events WHERE game_key = $1 ORDER BY id`,
      [gameKey],
    );
    expect(events.slice(1)).toEqual([
      { uid: Scorer.uid, kind: 'snap' },
      { uid: Owner.uid, kind: 'snap' },
      { uid: Scorer.uid, kind: 'undo' },
    ]);
    // The owner's list of counts moved, not the co-scorer's.
    const mine = await call(Scorer, 'GET', '/playcounts');
    expect(mine.json<{ games: unknown[] }>().games).toEqual([]);

    const before = await tableVersions(t.db);
    for (const [what, attempt] of [
      ['share', () => call(Scorer, 'PUT', `/playcounts/${gameKey}/share`)],
      ['archive', () => call(Scorer, 'PATCH', `/playcounts/${gameKey}`, { archived: true })],
      ['invite', () => call(Scorer, 'POST', `/playcounts/${gameKey}/coscorers`)],
      ['list', () => call(Scorer, 'GET', `/playcounts/${gameKey}/coscorers`)],
      ['stranger snaps', () => snap(Stranger)],
    ] as const) {
      expect((await attempt()).statusCode, what).toBe(404);
    }
    expect(await tableVersions(t.db)).toBe(before);

    const { coscorers } = await list(gameKey, 'playcounts');
    const wsFrom = ws.messages.length;
    await call(Owner, 'DELETE', `/playcounts/${gameKey}/coscorers/${coscorers[0]!.id}`);
    await ws.stateShowing<ScoringList>(
      `user:${Scorer.uid}:scoring`,
      (d) => d.playCounts.length === 0,
      wsFrom,
    );
    expect((await snap(Scorer)).statusCode).toBe(404);
    expect((await call(Scorer, 'GET', `/playcounts/${gameKey}`)).statusCode).toBe(404);
    ws.ws.close();
  });

  it("deleting a game empties its co-scorers' lists", async () => {
    const gameKey = await newGame('Gone soon');
    await withScorer(`/games/${gameKey}`);
    const ws = await TestSocket.open(t.wsUrl, { cookie: t.users.Scorer.cookie });
    const topic = `user:${t.users.Scorer.uid}:scoring`;
    await ws.subscribe(topic);
    const from = ws.messages.length;
    expect((await call(t.users.Owner, 'DELETE', `/games/${gameKey}`)).statusCode).toBe(200);
    await ws.stateShowing<ScoringList>(
      topic,
      (d) => !d.games.some((g) => g.gameKey === gameKey),
      from,
    );
    expect(await t.db.query('SELECT 1 FROM coscorers WHERE game_key = $1', [gameKey])).toEqual([]);
    ws.ws.close();
  });
});
