import { describe, expect, it } from 'vitest';
import {
  API,
  databaseKinds,
  expectRateLimited,
  newTeamWithPlayer,
  signInLocal,
  useTestApp,
} from './helpers.ts';
import { tinyPng } from './security-world.ts';

/**
 * The limits as shipped (RATE_LIMIT_FACTOR 1) answer 429 with Retry-After, and each
 * is counted per the caller it protects against: sign-in per client address (nobody is signed
 * in yet), scorekeeper messages and photo uploads per signed-in user (many coaches and parents
 * share one club or school address).
 */
const SIGN_IN_MAX = 20;
const MESSAGE_MAX = 5;
const PHOTO_MAX = 60;

describe.each(databaseKinds())('rate limits on $name', (kind) => {
  const t = useTestApp(kind, { config: { rateLimitFactor: 1 } });

  const signIn = (displayName: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/local`,
      remoteAddress,
      headers: { 'x-sagan-request': '1' },
      payload: { displayName },
    });

  // Local sign-in answers only this machine, so the two clients are two loopback addresses.
  it('sign-in: 429 with Retry-After past the limit, counted per client address', async () => {
    for (let i = 0; i < SIGN_IN_MAX; i++) {
      expect((await signIn(`Guesser ${i}`, '127.0.0.7')).statusCode).toBe(200);
    }
    const refused = await signIn('Guesser 99', '127.0.0.7');
    expectRateLimited(refused);
    expect(refused.cookies).toHaveLength(0);
    const users = await t.db.query('SELECT 1 FROM users WHERE display_name = $1', ['Guesser 99']);
    expect(users).toHaveLength(0);
    // Another client is not locked out by the first one.
    expect((await signIn('Bystander', '127.0.0.8')).statusCode).toBe(200);
  });

  it('scorekeeper messages: 429 with Retry-After, per sender across games', async () => {
    const owner = await signInLocal(t.app, 'Keeper');
    const games: string[] = [];
    for (const gameName of ['Game A', 'Game B']) {
      const res = await owner.request({
        method: 'POST',
        url: `${API}/games`,
        payload: { gameName, homeTeamName: 'Home' },
      });
      games.push(res.json<{ gameKey: string }>().gameKey);
    }
    const fan = await signInLocal(t.app, 'Chatty fan');
    const neighbour = await signInLocal(t.app, 'Quiet fan'); // same address as the chatty fan
    const send = (who: typeof fan, gameKey: string, text: string) =>
      who.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/scorekeeper-message`,
        payload: { scoreKeeperMessage: text },
      });
    for (let i = 0; i < MESSAGE_MAX; i++) {
      expect((await send(fan, games[i % 2]!, `go ${i}`)).statusCode).toBe(200);
    }
    // Moving to another game does not reset the budget: it bounds what one person sends.
    expectRateLimited(await send(fan, games[1]!, 'one more'));
    expectRateLimited(await send(fan, games[0]!, 'and another'));
    const stored = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scorekeeper_messages WHERE from_uid = $1',
      [fan.uid],
    );
    expect(stored[0]!.n).toBe(MESSAGE_MAX);
    expect((await send(neighbour, games[0]!, 'hello')).statusCode).toBe(200);
  });

  it('photo uploads: 429 with Retry-After, per user', async () => {
    const png = await tinyPng();
    const busy = await newTeamWithPlayer(await signInLocal(t.app, 'Busy coach'));
    // Same club network.
    const other = await newTeamWithPlayer(await signInLocal(t.app, 'Other coach'));
    for (let i = 0; i < PHOTO_MAX; i++) expect((await busy.uploadPhoto(png)).statusCode).toBe(200);
    const before = await t.db.query<{ image_url: string }>(
      'SELECT image_url FROM players WHERE team_key = $1',
      [busy.teamKey],
    );
    expectRateLimited(await busy.uploadPhoto(png));
    expect(
      await t.db.query('SELECT image_url FROM players WHERE team_key = $1', [busy.teamKey]),
    ).toEqual(before);
    expect((await other.uploadPhoto(png)).statusCode).toBe(200);
  });
});
