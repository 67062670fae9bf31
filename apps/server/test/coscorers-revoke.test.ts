import { describe, expect, it } from 'vitest';
import type { CoscorerList, Invite } from '@sagan/shared/coscorers';
import type { ServerMessage } from '@sagan/shared/realtime';
import { API, databaseKinds, newTeamWithPlayer, type TestUser, useTestApp } from './helpers.ts';
import { isState, type StateMessage, TestSocket } from './ws-client.ts';

// DESIGN §10 co-scorers over real sockets: a revoked co-scorer's socket loses the game's or
// count's scorers' topics at once, not when it next leaves the screen; deleting a game closes
// them for everyone; the owner's list of co-scorers is a live topic of the owner's own.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type NoAccess = Extract<ServerMessage, { type: 'error' }>;

const noAccess =
  (topic: string) =>
  (m: ServerMessage): m is NoAccess =>
    m.type === 'error' && m.topic === topic && m.code === 'no-access';

describe.each(databaseKinds())('revoking co-scorers on $name', (kind) => {
  const t = useTestApp(kind, () => ({
    users: ['Owner', 'Scorer', 'Keeper', 'Stranger'],
    listen: true,
  }));

  const call = (user: TestUser, method: Method, url: string, payload?: object) =>
    user.request({ method, url: `${API}${url}`, ...(payload === undefined ? {} : { payload }) });
  async function ok<T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>) {
    const r = await res;
    expect(r.statusCode, r.body).toBeLessThan(300);
    return r.json() as T;
  }
  async function newGame(): Promise<string> {
    const made = await ok<{ gameKey: string }>(
      call(t.users.Owner, 'POST', '/games', { gameName: 'Rockets v Comets', sportID: 2 }),
    );
    return made.gameKey;
  }
  async function newCount(): Promise<{ gameKey: string; playerKey: string }> {
    const { teamKey, playerKey } = await newTeamWithPlayer(t.users.Owner);
    const made = await ok<{ gameKey: string }>(
      call(t.users.Owner, 'POST', '/playcounts', {
        teamKey,
        gameName: 'Sat',
        gameDate: '2026-09-05',
      }),
    );
    return { gameKey: made.gameKey, playerKey };
  }
  /** The owner invites, `user` redeems; answers the binding's id (what the owner revokes). */
  async function bind(path: string, user: TestUser): Promise<string> {
    const invite = await ok<Invite>(call(t.users.Owner, 'POST', `${path}/coscorers`));
    await ok(call(user, 'POST', '/coscorers/redeem', { token: invite.token }));
    return invite.id;
  }
  const tap = (user: TestUser, gameKey: string) =>
    ok(
      call(user, 'POST', `/games/${gameKey}/events`, {
        action: { kind: 'score', team: 'home', by: 2 },
        device: `${user.displayName}-phone`,
      }),
    );
  async function socketOf(user: TestUser, topics: string[]): Promise<TestSocket> {
    const ws = await TestSocket.open(t.wsUrl, { cookie: user.cookie });
    for (const topic of topics) await ws.subscribe(topic);
    return ws;
  }
  it("a revoked co-scorer's socket loses the game's scorers' topics at once; others keep theirs", async () => {
    const gameKey = await newGame();
    const { Owner, Scorer, Keeper } = t.users;
    const scorerId = await bind(`/games/${gameKey}`, Scorer);
    await bind(`/games/${gameKey}`, Keeper);
    const topics = [`gamehistory:${gameKey}`, `gameheld:${gameKey}`, `gameown:${gameKey}`];
    const [history] = topics as [string, string];
    const revoked = await socketOf(Scorer, topics);
    const kept = await socketOf(Keeper, topics);
    const owner = await socketOf(Owner, topics);
    expect(t.app.hub.subscriberCount(history)).toBe(3);

    const from = revoked.messages.length;
    await ok(call(Owner, 'DELETE', `/games/${gameKey}/coscorers/${scorerId}`));
    for (const topic of topics) {
      const told = await revoked.waitFor(noAccess(topic), from);
      expect(told.message).toMatch(/no longer have access/);
    }
    expect(t.app.hub.subscriberCount(history)).toBe(2);

    // The next change reaches the owner and the other co-scorer, and not the revoked socket.
    const keptFrom = kept.messages.length;
    const ownerFrom = owner.messages.length;
    await tap(Owner, gameKey);
    await owner.waitFor(isState(history), ownerFrom);
    await kept.waitFor(isState(history), keptFrom);
    await revoked.drained();
    expect(revoked.messages.slice(from).filter((m) => m.type === 'state')).toEqual([]);
    expect(kept.messages.some(noAccess(history))).toBe(false);
    expect(owner.messages.some((m) => m.type === 'error')).toBe(false);
    for (const ws of [revoked, kept, owner]) ws.close();
  });

  it("a revoked co-counter's socket loses the play count at once", async () => {
    const { gameKey, playerKey } = await newCount();
    const { Owner, Scorer } = t.users;
    const scorerId = await bind(`/playcounts/${gameKey}`, Scorer);
    const topic = `playcount:${gameKey}`;
    const revoked = await socketOf(Scorer, [topic]);
    const owner = await socketOf(Owner, [topic]);

    const from = revoked.messages.length;
    await ok(call(Owner, 'DELETE', `/playcounts/${gameKey}/coscorers/${scorerId}`));
    await revoked.waitFor(noAccess(topic), from);
    expect(t.app.hub.subscriberCount(topic)).toBe(1);

    // The owner's next snap is the owner's alone to see.
    const ownerFrom = owner.messages.length;
    await ok(
      call(Owner, 'POST', `/playcounts/${gameKey}/snaps`, { quarter: 1, players: [playerKey] }),
    );
    await owner.waitFor(
      (m): m is ServerMessage => (m.type === 'state' || m.type === 'delta') && m.topic === topic,
      ownerFrom,
    );
    await revoked.drained();
    expect(
      revoked.messages
        .slice(from)
        .filter((m) => (m.type === 'state' || m.type === 'delta') && m.topic === topic),
    ).toEqual([]);
    // Asking again is refused, as for anyone who does not score it.
    expect((await revoked.subscribeAnswer(topic)).type).toBe('error');
    for (const ws of [revoked, owner]) ws.close();
  });

  it("deleting a game closes its scorers' topics on every socket, the owner's too", async () => {
    const gameKey = await newGame();
    const { Owner, Scorer } = t.users;
    await bind(`/games/${gameKey}`, Scorer);
    const topics = [
      `gamehistory:${gameKey}`,
      `gameheld:${gameKey}`,
      `gameown:${gameKey}`,
      `coscorers:game:${gameKey}`,
    ];
    const scorer = await socketOf(Scorer, topics.slice(0, 3));
    const owner = await socketOf(Owner, topics);
    const scorerFrom = scorer.messages.length;
    const ownerFrom = owner.messages.length;

    await ok(call(Owner, 'DELETE', `/games/${gameKey}`));
    for (const topic of topics.slice(0, 3)) await scorer.waitFor(noAccess(topic), scorerFrom);
    for (const topic of topics) await owner.waitFor(noAccess(topic), ownerFrom);
    for (const topic of topics) expect(t.app.hub.subscriberCount(topic)).toBe(0);
    for (const ws of [scorer, owner]) ws.close();
  });

  it("the owner's list of co-scorers is live: an invitation, a redemption, a removal", async () => {
    const gameKey = await newGame();
    const { Owner, Scorer } = t.users;
    const topic = `coscorers:game:${gameKey}`;
    const owner = await TestSocket.open(t.wsUrl, { cookie: Owner.cookie });
    const first = await owner.subscribe(topic);
    expect(first.data).toEqual({ coscorers: [], invites: [] });
    const next = async (change: () => Promise<unknown>): Promise<CoscorerList> => {
      const from = owner.messages.length;
      await change();
      return (await owner.waitFor(isState(topic), from)).data as CoscorerList;
    };

    let invite: Invite | undefined;
    const invited = await next(async () => {
      invite = await ok<Invite>(call(Owner, 'POST', `/games/${gameKey}/coscorers`));
    });
    expect(invited).toEqual({
      coscorers: [],
      invites: [{ id: invite!.id, createdAt: expect.any(Number), expiresAt: invite!.expiresAt }],
    });
    const joined = await next(() =>
      ok(call(Scorer, 'POST', '/coscorers/redeem', { token: invite!.token })),
    );
    expect(joined).toEqual({
      coscorers: [{ id: invite!.id, name: 'Scorer', since: expect.any(Number) }],
      invites: [],
    });
    // What the panel shows live is what the list over HTTP answers.
    expect(await ok(call(Owner, 'GET', `/games/${gameKey}/coscorers`))).toEqual(joined);
    const removed = await next(() =>
      ok(call(Owner, 'DELETE', `/games/${gameKey}/coscorers/${invite!.id}`)),
    );
    expect(removed).toEqual({ coscorers: [], invites: [] });
    owner.close();
  });

  it("the co-scorers' list is the owner's alone, for games and play counts", async () => {
    const gameKey = await newGame();
    const { gameKey: countKey } = await newCount();
    const { Owner, Scorer, Stranger } = t.users;
    await bind(`/games/${gameKey}`, Scorer);
    await bind(`/playcounts/${countKey}`, Scorer);
    const refusedTo = async (user: TestUser | null, topic: string) => {
      const ws = await TestSocket.open(t.wsUrl, user ? { cookie: user.cookie } : {});
      const answer = await ws.subscribeAnswer(topic);
      ws.close();
      return answer.type === 'error';
    };
    for (const topic of [`coscorers:game:${gameKey}`, `coscorers:playcount:${countKey}`]) {
      // A co-scorer may score, not see who else does; nor may anyone else.
      expect(await refusedTo(Scorer, topic), topic).toBe(true);
      expect(await refusedTo(Stranger, topic), topic).toBe(true);
      expect(await refusedTo(null, topic), topic).toBe(true);
      expect(await refusedTo(Owner, topic), topic).toBe(false);
    }
    // A key of the other kind, or no kind, names nothing of the owner's.
    expect(await refusedTo(Owner, `coscorers:playcount:${gameKey}`)).toBe(true);
    expect(await refusedTo(Owner, `coscorers:${gameKey}`)).toBe(true);
    const owner = await TestSocket.open(t.wsUrl, { cookie: Owner.cookie });
    const count = (await owner.subscribe(`coscorers:playcount:${countKey}`)) as StateMessage;
    expect((count.data as CoscorerList).coscorers.map((c) => c.name)).toEqual(['Scorer']);
    owner.close();
  });
});
