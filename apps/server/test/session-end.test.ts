import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { logoutAllResponseSchema } from '@sagan/shared/auth';
import type { ServerMessage } from '@sagan/shared/realtime';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { teamTopic } from '@sagan/shared/topics/team';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { myPlayCountsTopic } from '@sagan/shared/topics/user-playcounts';
import { loadConfig } from '../src/config.ts';
import {
  API,
  buildTestApp,
  databaseKinds,
  listenWs,
  openNode,
  signInLocal,
  useTestApp,
} from './helpers.ts';
import { TestSocket } from './ws-client.ts';

/**
 * A socket's identity ends with its session: private topics are refused on it, and its open
 * private subscriptions are dropped with a pushed 'signed-out' error, on every node, within 5 s
 * of a sign-out (same node: at once; other nodes: NOTIFY; expiry: the sweep).
 */

type ErrorMessage = Extract<ServerMessage, { type: 'error' }>;
const signedOut =
  (topic?: string) =>
  (m: ServerMessage): m is ErrorMessage =>
    m.type === 'error' && m.code === 'signed-out' && m.topic === topic;
const refused =
  (topic: string) =>
  (m: ServerMessage): m is ErrorMessage =>
    m.type === 'error' && m.topic === topic;

/** Figures for docs/reliability.md, printed at the end of each suite. */
const figures: string[] = [];

async function openSubscribed(url: string, cookie: string, wanted: string[]): Promise<TestSocket> {
  const ws = await TestSocket.open(url, { cookie });
  for (const topic of wanted) {
    await ws.subscribe(topic);
  }
  return ws;
}

const me = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'GET', url: `${API}/auth/me`, headers: { cookie } });

describe('SESSION_IDLE_DAYS', () => {
  it('defaults to 14 days and is validated', () => {
    expect(loadConfig({}).sessionIdleDays).toBe(14);
    expect(loadConfig({ SESSION_IDLE_DAYS: '3' }).sessionIdleDays).toBe(3);
    expect(() => loadConfig({ SESSION_IDLE_DAYS: '0' })).toThrow(/SESSION_IDLE_DAYS/);
  });
});

describe.each(databaseKinds())('session end on $name', (kind) => {
  let url: string;

  afterAll(async () => {
    console.log(`session end (${kind.name}):\n  ${figures.splice(0).join('\n  ')}`);
  });
  const t = useTestApp(kind);
  beforeAll(async () => {
    url = await listenWs(t.app);
  });

  it('refuses a private topic on a socket whose session ended, public topics stay', async () => {
    const owner = await signInLocal(t.app, 'Ended Owner');
    const mine = myGamesTopic.name(owner.uid);
    const ws = await TestSocket.open(url, { cookie: owner.cookie });
    await ws.subscribe(mine);
    ws.send({ type: 'unsubscribe', topic: mine });
    // The session ends in the store without this node being told (as when another node's
    // NOTIFY is lost): the subscribe-time check alone must refuse.
    await t.app.db.query('DELETE FROM sessions WHERE uid = $1', [owner.uid]);
    const from = ws.messages.length;
    ws.send({ type: 'subscribe', topic: mine });
    const refusal = await ws.waitFor(refused(mine), from);
    expect(refusal.code).toBe('signed-out');
    expect(t.app.hub.subscriberCount(mine)).toBe(0);
    const recent = recentGamesTopic.name();
    await ws.subscribe(recent);
    ws.close();
  });

  it('sign-out pushes the refusal to the session’s sockets within 5 s; other sessions keep theirs', async () => {
    const owner = await signInLocal(t.app, 'Signing Out');
    const again = await signInLocal(t.app, 'Signing Out'); // the same user on another device
    expect(again.uid).toBe(owner.uid);
    const created = await owner.request({ method: 'POST', url: `${API}/teams` });
    const { teamKey } = created.json<{ teamKey: string }>();
    const wanted = [
      myGamesTopic.name(owner.uid),
      myPlayCountsTopic.name(owner.uid),
      teamTopic.name(teamKey),
      recentGamesTopic.name(),
    ];
    const ws = await openSubscribed(url, owner.cookie, wanted);
    const other = await openSubscribed(url, again.cookie, wanted.slice(0, 1));
    const from = ws.messages.length;

    const t0 = performance.now();
    const res = await owner.request({ method: 'POST', url: `${API}/auth/logout` });
    expect(res.statusCode).toBe(200);
    await ws.waitFor(signedOut(), from);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(5000);
    figures.push(`sign-out → refusal, same node: ${ms.toFixed(1)} ms`);

    for (const topic of wanted.slice(0, 3)) {
      await ws.waitFor(signedOut(topic), from);
      expect(t.app.hub.subscriberCount(topic)).toBe(topic === wanted[0] ? 1 : 0);
    }
    // The public topic stays on the now anonymous socket, and the socket stays open.
    expect(ws.messages.slice(from).some(refused(recentGamesTopic.name()))).toBe(false);
    expect(ws.closed).toBeNull();
    // The same user's other session is untouched.
    expect(other.messages.some((m) => m.type === 'error')).toBe(false);
    expect((await me(t.app, again.cookie)).statusCode).toBe(200);
    // And the socket cannot get the private topics back.
    const later = ws.messages.length;
    ws.send({ type: 'subscribe', topic: wanted[0]! });
    await ws.waitFor(refused(wanted[0]!), later);
    expect(t.app.hub.subscriberCount(wanted[0]!)).toBe(1);
    ws.close();
    other.close();
  });

  it('logout-all ends every session of the user, each socket told; others untouched', async () => {
    const sessions = [
      await signInLocal(t.app, 'Everywhere'),
      await signInLocal(t.app, 'Everywhere'),
      await signInLocal(t.app, 'Everywhere'),
    ];
    const bystander = await signInLocal(t.app, 'Bystander');
    const uid = sessions[0]!.uid;
    const mine = myGamesTopic.name(uid);
    const sockets = await Promise.all(
      sessions.slice(0, 2).map((s) => openSubscribed(url, s.cookie, [mine])),
    );
    const theirs = await openSubscribed(url, bystander.cookie, [myGamesTopic.name(bystander.uid)]);

    // Cookie mutations need the CSRF header and a same-origin Origin, like every other.
    const noHeader = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout-all`,
      headers: { cookie: sessions[0]!.cookie },
    });
    expect(noHeader.statusCode).toBe(403);
    const foreign = await sessions[0]!.request({
      method: 'POST',
      url: `${API}/auth/logout-all`,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout-all`,
      headers: { 'x-sagan-request': '1' },
    });
    expect(anonymous.statusCode).toBe(401);
    for (const s of sessions) expect((await me(t.app, s.cookie)).statusCode).toBe(200);

    const t0 = performance.now();
    const res = await sessions[2]!.request({ method: 'POST', url: `${API}/auth/logout-all` });
    expect(res.statusCode).toBe(200);
    expect(logoutAllResponseSchema.parse(res.json())).toEqual({ ok: true, ended: 3 });
    expect(res.headers['set-cookie']).toMatch(/sagan_session=;/);
    await Promise.all(sockets.map((ws) => ws.waitFor(signedOut(mine))));
    figures.push(`logout-all → refusal on 2 sockets: ${(performance.now() - t0).toFixed(1)} ms`);
    expect(t.app.hub.subscriberCount(mine)).toBe(0);
    for (const s of sessions) expect((await me(t.app, s.cookie)).statusCode).toBe(401);
    expect((await me(t.app, bystander.cookie)).statusCode).toBe(200);
    expect(theirs.messages.some((m) => m.type === 'error')).toBe(false);
    for (const ws of [...sockets, theirs]) ws.close();
  });

  it('a session idle longer than SESSION_IDLE_DAYS ends; its sockets are told by the sweep', async () => {
    const idle = await signInLocal(t.app, 'Idle One');
    const mine = myGamesTopic.name(idle.uid);
    const ws = await openSubscribed(url, idle.cookie, [mine]);
    await t.app.db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '14 days 1 minute' WHERE uid = $1`,
      [idle.uid],
    );
    const t0 = performance.now();
    await ws.waitFor(signedOut(mine));
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(5000);
    figures.push(`idle expiry → refusal (sweep every 2 s): ${ms.toFixed(0)} ms`);
    expect((await me(t.app, idle.cookie)).statusCode).toBe(401);
    ws.close();
  });

  it('an absolutely expired session is swept the same way', async () => {
    const old = await signInLocal(t.app, 'Expiring');
    const mine = myGamesTopic.name(old.uid);
    const ws = await openSubscribed(url, old.cookie, [mine]);
    const swept = t.app.sessionWatch.counts.swept;
    await t.app.db.query(`UPDATE sessions SET expires_at = now() WHERE uid = $1`, [old.uid]);
    const t0 = performance.now();
    await ws.waitFor(signedOut(mine));
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(5000);
    expect(t.app.sessionWatch.counts.swept).toBe(swept + 1);
    figures.push(`absolute expiry → refusal (sweep): ${ms.toFixed(0)} ms`);
    ws.close();
  });

  it('writes a session’s last use at most once an hour, and honours the configured idle limit', async () => {
    const user = await signInLocal(t.app, 'Seen');
    const lastSeen = async () =>
      (
        await t.app.db.query<{ age: number }>(
          `SELECT extract(epoch FROM now() - last_seen_at)::float8 AS age FROM sessions WHERE uid = $1`,
          [user.uid],
        )
      )[0]!.age;
    await t.app.db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '30 minutes' WHERE uid = $1`,
      [user.uid],
    );
    expect((await me(t.app, user.cookie)).statusCode).toBe(200);
    expect(await lastSeen()).toBeGreaterThan(29 * 60); // not rewritten within the hour
    await t.app.db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '13 days' WHERE uid = $1`,
      [user.uid],
    );
    // Changed behind the server's back: its memory of the session would hide it for seconds.
    t.app.sessionWatch.cache.clear();
    expect((await me(t.app, user.cookie)).statusCode).toBe(200);
    expect(await lastSeen()).toBeLessThan(60); // used again: the idle clock restarts

    const strict = await buildTestApp(t.app.db, { sessionIdleDays: 2 });
    try {
      await t.app.db.query(
        `UPDATE sessions SET last_seen_at = now() - interval '3 days' WHERE uid = $1`,
        [user.uid],
      );
      expect((await me(strict, user.cookie)).statusCode).toBe(401);
      expect((await me(t.app, user.cookie)).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it.runIf(kind.name === 'postgres')(
    'two nodes: a sign-out on node A removes the session’s subscriptions on node B within 5 s',
    async () => {
      const b = await openNode(t.database);
      const nodeB = b.app;
      try {
        // Node B hears of the sign-out only through NOTIFY: its sweep is put far out of the way.
        nodeB.sessionWatch.stop();
        nodeB.sessionWatch.start(60_000);
        const urlB = await listenWs(nodeB);
        const owner = await signInLocal(t.app, 'Two Nodes');
        const created = await owner.request({ method: 'POST', url: `${API}/teams` });
        const { teamKey } = created.json<{ teamKey: string }>();
        const wanted = [myGamesTopic.name(owner.uid), teamTopic.name(teamKey)];
        const onB = await openSubscribed(urlB, owner.cookie, wanted);
        const onA = await openSubscribed(url, owner.cookie, wanted);
        const notified = nodeB.sessionWatch.counts.notified;

        const t0 = performance.now();
        await owner.request({ method: 'POST', url: `${API}/auth/logout` });
        await onB.waitFor(signedOut());
        const ms = performance.now() - t0;
        expect(ms).toBeLessThan(5000);
        figures.push(`sign-out on node A → refusal on node B (NOTIFY): ${ms.toFixed(1)} ms`);
        for (const topic of wanted) {
          await onB.waitFor(signedOut(topic));
          await onA.waitFor(signedOut(topic));
          expect(nodeB.hub.subscriberCount(topic)).toBe(0);
        }
        expect(nodeB.sessionWatch.counts.notified).toBe(notified + 1);

        // Expiry on node B, found by its own sweep (back to the usual interval).
        nodeB.sessionWatch.stop();
        nodeB.sessionWatch.start();
        const later = await signInLocal(t.app, 'Two Nodes Later');
        const laterTopic = myGamesTopic.name(later.uid);
        const socket = await openSubscribed(urlB, later.cookie, [laterTopic]);
        await t.app.db.query(`UPDATE sessions SET expires_at = now() WHERE uid = $1`, [later.uid]);
        const t1 = performance.now();
        await socket.waitFor(signedOut(laterTopic));
        figures.push(
          `expiry → refusal on node B (sweep): ${(performance.now() - t1).toFixed(0)} ms`,
        );
        for (const ws of [onA, onB, socket]) ws.close();
      } finally {
        await b.close();
      }
    },
  );
});
