import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { CLIENT_ID, googleStandIn } from './google-stand-in.ts';
import { API, databaseKinds, useTestApp } from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// A phone app's Google ID token: its audience must be ours alone (or name us as the party it
// was issued to), and a socket opened with it acts for its user only until it expires or the
// user signs out everywhere, like a cookie session.

type ErrorMessage = Extract<ServerMessage, { type: 'error' }>;
const signedOut =
  (topic?: string) =>
  (m: ServerMessage): m is ErrorMessage =>
    m.type === 'error' && m.code === 'signed-out' && m.topic === topic;

describe.each(databaseKinds())('Bearer tokens on $name', (kind) => {
  let google: Awaited<ReturnType<typeof googleStandIn>>;
  beforeAll(async () => {
    google = await googleStandIn();
  });
  afterAll(() => google.close());
  const t = useTestApp(kind, () => ({ config: { google: google.google }, listen: true }));

  const me = (token: string) =>
    t.app.inject({ url: `${API}/auth/me`, headers: { authorization: `Bearer ${token}` } });

  it('an audience list with others beside ours is refused, unless we are its azp', async () => {
    expect((await me(await google.token('aud-ours'))).statusCode).toBe(200);
    expect((await me(await google.token('aud-one', { aud: [CLIENT_ID] }))).statusCode).toBe(200);
    const shared = await google.token('aud-shared', { aud: [CLIENT_ID, 'other.example'] });
    expect((await me(shared)).statusCode).toBe(401);
    const otherParty = await google.token('aud-other-azp', {
      aud: ['other.example', CLIENT_ID],
      azp: 'other.example',
    });
    expect((await me(otherParty)).statusCode).toBe(401);
    const oursAzp = await google.token('aud-our-azp', {
      aud: [CLIENT_ID, 'other.example'],
      azp: CLIENT_ID,
    });
    expect((await me(oursAzp)).statusCode).toBe(200);
    expect((await me(await google.token('aud-none', { aud: 'other.example' }))).statusCode).toBe(
      401,
    );
  });

  it('a socket opened with a token that has expired is refused private topics', async () => {
    // Within the verifier's 5 s clock tolerance: the upgrade is accepted, the socket is not
    // trusted past the token's expiry.
    const token = await google.token('phone-expired', { expiresIn: -2 });
    const ws = await TestSocket.open(t.wsUrl, { authorization: `Bearer ${token}` });
    const mine = myGamesTopic.name('phone-expired');
    ws.send({ type: 'subscribe', topic: mine });
    await ws.waitFor(signedOut(mine));
    expect(ws.states(mine)).toHaveLength(0);
    ws.ws.close();
  });

  it("a token's expiry ends its socket's private subscriptions (the sweep)", async () => {
    const token = await google.token('phone-expiring', { expiresIn: 600 });
    const ws = await TestSocket.open(t.wsUrl, { authorization: `Bearer ${token}` });
    const mine = myGamesTopic.name('phone-expiring');
    await ws.subscribe(mine);
    // The sweep as it runs when the token's expiry has passed; before it, nothing ends.
    const from = ws.messages.length;
    await t.app.sessionWatch.sweep(Date.now() + 60_000);
    // A ping's answer comes after anything the sweep sent.
    ws.send({ type: 'ping' });
    await ws.waitFor((m): m is ServerMessage => m.type === 'pong', from);
    expect(ws.messages.slice(from).some(signedOut(mine))).toBe(false);
    await t.app.sessionWatch.sweep(Date.now() + 601_000);
    await ws.waitFor(signedOut(mine), from);
    // The socket is anonymous now: its user's topic is refused.
    const again = ws.messages.length;
    ws.send({ type: 'subscribe', topic: mine });
    await ws.waitFor((m): m is ErrorMessage => m.type === 'error' && m.topic === mine, again);
    expect(ws.states(mine)).toHaveLength(1);
    ws.ws.close();
  });

  it("'sign out everywhere' reaches the sockets opened with a Bearer token", async () => {
    const token = await google.token('phone-everywhere');
    const ws = await TestSocket.open(t.wsUrl, { authorization: `Bearer ${token}` });
    const mine = myGamesTopic.name('phone-everywhere');
    await ws.subscribe(mine);
    const bystanderToken = await google.token('phone-bystander');
    const bystander = await TestSocket.open(t.wsUrl, {
      authorization: `Bearer ${bystanderToken}`,
    });
    const theirs = myGamesTopic.name('phone-bystander');
    await bystander.subscribe(theirs);
    const from = ws.messages.length;
    const out = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout-all`,
      headers: { authorization: `Bearer ${token}`, 'x-sagan-request': '1' },
    });
    expect(out.statusCode).toBe(200);
    await ws.waitFor(signedOut(mine), from);
    await ws.waitFor(signedOut(), from);
    // Another user's socket is untouched: it still gets its topic's state on a new subscribe.
    expect(bystander.messages.some(signedOut(theirs))).toBe(false);
    await bystander.subscribe(theirs);
    ws.ws.close();
    bystander.ws.close();
  });
});
