import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  API,
  databaseKinds,
  listenWs,
  newGameOf,
  openNode,
  postgresKindIfAny,
  signInLocal,
  until,
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

/** Waits until a node counts `want` watchers (nodes publish their counts every second). */
const counted = (app: FastifyInstance, gameKey: string, want: number) =>
  until(async () => (await watchers(app, gameKey)) === want, 8000, `${want} watchers`);

async function newGame(app: FastifyInstance): Promise<string> {
  return newGameOf(await signInLocal(app, 'Watched Keeper'));
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
    await counted(t.app, gameKey, 1);
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
    await counted(t.nodeA, gameKey, 3);
    await counted(t.nodeB, gameKey, 3);
    onB[0]!.close();
    await counted(t.nodeA, gameKey, 2);
    await counted(t.nodeB, gameKey, 2);
    onA.close();
    onB[1]!.close();
    await counted(t.nodeA, gameKey, 0);
  });

  it('a node that stops leaves the sums at once', async () => {
    const nodeC = await openNode(t.database);
    const gameKey = await newGame(t.nodeA);
    const viewer = await watchGame(await listenWs(nodeC.app), gameKey);
    await counted(t.nodeA, gameKey, 1);
    await nodeC.close(); // closes the viewer's socket too
    expect(await watchers(t.nodeA, gameKey)).toBe(0);
    viewer.close();
  });
});
