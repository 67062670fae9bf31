import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  API,
  databaseKinds,
  listenWs,
  openNode,
  postgresKindIfAny,
  signInLocal,
  useTestApp,
  useTwoNodes,
} from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// DESIGN §4: countScoreboardWatchers is the number of people watching a game, whichever node
// each of them is connected to.

async function watchGame(url: string, gameKey: string): Promise<TestSocket> {
  const ws = await TestSocket.open(url);
  await ws.subscribe(`game:${gameKey}`);
  return ws;
}

async function watchers(app: FastifyInstance, gameKey: string): Promise<number> {
  const res = await app.inject({ url: `${API}/games/${gameKey}/watchers` });
  expect(res.statusCode).toBe(200);
  return res.json<{ watchers: number }>().watchers;
}

/** Polls until the count is `want` (nodes publish their counts every second). */
async function until(app: FastifyInstance, gameKey: string, want: number): Promise<number> {
  const deadline = Date.now() + 8000;
  let got = await watchers(app, gameKey);
  while (got !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    got = await watchers(app, gameKey);
  }
  return got;
}

async function newGame(app: FastifyInstance): Promise<string> {
  const keeper = await signInLocal(app, 'Watched Keeper');
  const res = await keeper.request({ method: 'POST', url: `${API}/games`, payload: {} });
  return res.json<{ gameKey: string }>().gameKey;
}

describe.each(databaseKinds())('watchers of a game on one node ($name)', (kind) => {
  const t = useTestApp(kind, { listen: true });

  it('counts the sockets watching the game, and forgets those that leave', async () => {
    const gameKey = await newGame(t.app);
    expect(await watchers(t.app, gameKey)).toBe(0);
    const a = await watchGame(t.wsUrl, gameKey);
    const b = await watchGame(t.wsUrl, gameKey);
    expect(await watchers(t.app, gameKey)).toBe(2);
    a.close();
    await a.waitClosed();
    expect(await until(t.app, gameKey, 1)).toBe(1);
    b.close();
  });
});

const postgres = postgresKindIfAny();

describe.runIf(postgres)('watchers of a game across two nodes on one PostgreSQL', () => {
  const t = useTwoNodes(postgres);

  it('every node answers the sum over the nodes, and follows viewers leaving', async () => {
    const gameKey = await newGame(t.nodeA);
    const onA = await watchGame(t.urlA, gameKey);
    const onB = [await watchGame(t.urlB, gameKey), await watchGame(t.urlB, gameKey)];
    expect(await until(t.nodeA, gameKey, 3)).toBe(3);
    expect(await until(t.nodeB, gameKey, 3)).toBe(3);
    onB[0]!.close();
    expect(await until(t.nodeA, gameKey, 2)).toBe(2);
    expect(await until(t.nodeB, gameKey, 2)).toBe(2);
    onA.close();
    onB[1]!.close();
    expect(await until(t.nodeA, gameKey, 0)).toBe(0);
  });

  it('a node that stops leaves the sums at once', async () => {
    const nodeC = await openNode(t.database);
    const gameKey = await newGame(t.nodeA);
    const viewer = await watchGame(await listenWs(nodeC.app), gameKey);
    expect(await until(t.nodeA, gameKey, 1)).toBe(1);
    await nodeC.close(); // closes the viewer's socket too
    expect(await watchers(t.nodeA, gameKey)).toBe(0);
    viewer.close();
  });
});
