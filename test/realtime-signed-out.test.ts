// The web app's realtime client against the real server when the session ends: lives here,
// beside both apps, because neither app may import the other.
import { describe, expect, it } from 'vitest';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { API, databaseKinds, signInLocal, until, useTestApp } from '../apps/server/test/helpers.ts';
import { useWebRealtime } from './web-realtime.ts';

// The socket sends the cookie of whoever the test has signed in, as a browser sends the page's.
let cookie = '';

const kind = databaseKinds()[0]!;

describe('web realtime client when the session ends', () => {
  const t = useTestApp(kind, { listen: true });
  const openClient = useWebRealtime(() => ({ cookie }));

  it('drops the private topic, tells the app, and asks again after the next sign-in', async () => {
    const user = await signInLocal(t.app, 'Web Viewer');
    cookie = user.cookie;
    const client = openClient(t.wsUrl);
    const mine = myGamesTopic.name(user.uid);
    const recent = recentGamesTopic.name();
    let signedOut = 0;
    client.onSignedOut(() => signedOut++);
    client.subscribe(mine, () => undefined);
    client.subscribe(recent, () => undefined);
    await until(() => client.snapshot(mine)?.data !== undefined);
    await until(() => client.snapshot(recent)?.data !== undefined);

    // Signed out elsewhere (another tab, another device): only the server can tell this page.
    const t0 = performance.now();
    await user.request({ method: 'POST', url: `${API}/auth/logout` });
    await until(() => signedOut > 0);
    console.log(`web client told of sign-out in ${(performance.now() - t0).toFixed(1)} ms`);
    expect(signedOut).toBe(1);
    const dropped = client.snapshot(mine)!;
    expect(dropped.data).toBeUndefined();
    expect(dropped.error).toMatch(/signed out/i);
    expect(dropped.subscribed).toBe(false);
    expect(t.app.hub.subscriberCount(mine)).toBe(0);
    // The public topic is untouched.
    expect(client.snapshot(recent)!.error).toBeUndefined();
    expect(t.app.hub.subscriberCount(recent)).toBe(1);

    // Signed in again: the app reconnects and the page's topic comes back under the new session.
    const back = await signInLocal(t.app, 'Web Viewer');
    cookie = back.cookie;
    client.reconnect();
    await until(() => client.snapshot(mine)?.data !== undefined);
    expect(client.snapshot(mine)!.error).toBeUndefined();
    expect(t.app.hub.subscriberCount(mine)).toBe(1);
  });
});
