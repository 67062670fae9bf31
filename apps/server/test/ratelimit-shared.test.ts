import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { API, postgresKindIfAny, signInLocal, useTwoNodes } from './helpers.ts';

// Write limits are per user across every node: the counts live in the database both nodes
// share. A node claims a tenth of the limit at a time, so most writes cost no extra round trip
// and a slice the other node claimed and did not spend may be lost to the caller.

const CREATE_MAX = 60;
const SLICE = CREATE_MAX / 10;
const MESSAGE_MAX = 5;

describe.runIf(postgresKindIfAny())('write limits shared by two nodes on PostgreSQL', () => {
  const nodes = useTwoNodes(postgresKindIfAny(), { config: { rateLimitFactor: 1 } });

  const post = (app: FastifyInstance, cookie: string, url: string, payload: unknown = {}) =>
    app.inject({
      method: 'POST',
      url: `${API}${url}`,
      headers: { 'x-sagan-request': '1', cookie },
      payload: payload as Record<string, unknown>,
    });

  it('one user writing through both nodes gets the documented 60 new games, not 120', async () => {
    const maker = await signInLocal(nodes.nodeA, 'Two Node Maker');
    const claimsBefore = nodes.nodeA.writeLimitCounts.claims + nodes.nodeB.writeLimitCounts.claims;
    const statuses: number[] = [];
    for (let i = 0; i < 2 * CREATE_MAX; i++) {
      const node = i % 2 === 0 ? nodes.nodeA : nodes.nodeB;
      statuses.push((await post(node, maker.cookie, '/games')).statusCode);
    }
    const made = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    console.log(
      `two nodes, one user, ${2 * CREATE_MAX} new games asked: ${made} made, ${refused} refused`,
    );
    expect(made + refused).toBe(2 * CREATE_MAX);
    expect(made).toBeLessThanOrEqual(CREATE_MAX);
    expect(made).toBeGreaterThanOrEqual(CREATE_MAX - SLICE);
    const [row] = await nodes.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM games WHERE uid = $1',
      [maker.uid],
    );
    expect(row?.n).toBe(made);
    // One round trip per slice, and none once the database has nothing left to give.
    const claims =
      nodes.nodeA.writeLimitCounts.claims + nodes.nodeB.writeLimitCounts.claims - claimsBefore;
    console.log(`database round trips for those ${2 * CREATE_MAX} limit checks: ${claims}`);
    expect(claims).toBeLessThanOrEqual(CREATE_MAX / SLICE + 2);
  });

  it('the scorekeeper gets at most 5 messages a minute from one user, whichever node', async () => {
    const keeper = await signInLocal(nodes.nodeA, 'Two Node Keeper');
    const fan = await signInLocal(nodes.nodeB, 'Two Node Fan');
    const game = await post(nodes.nodeA, keeper.cookie, '/games');
    const { gameKey } = game.json<{ gameKey: string }>();
    const statuses: number[] = [];
    for (let i = 0; i < 2 * MESSAGE_MAX; i++) {
      const node = i % 2 === 0 ? nodes.nodeA : nodes.nodeB;
      const res = await post(node, fan.cookie, `/games/${gameKey}/scorekeeper-message`, {
        scoreKeeperMessage: `message ${i}`,
      });
      statuses.push(res.statusCode);
    }
    // A slice of a 5-a-minute limit is one message: nothing is lost between the nodes.
    expect(statuses).toEqual([
      ...Array<number>(MESSAGE_MAX).fill(200),
      ...Array<number>(MESSAGE_MAX).fill(429),
    ]);
  });
});
