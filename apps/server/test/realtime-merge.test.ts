import { describe, expect, it } from 'vitest';
import { loadGameTopic } from '../src/routes/scoreboards/repo.ts';
import {
  API,
  databaseKinds,
  newGameOf,
  postgresKindIfAny,
  signInLocal,
  type TestUser,
  useTestApp,
  useTwoNodes,
} from './helpers.ts';
import { TestSocket } from './ws-client.ts';

// A scorekeeper's patch carries the new scoreboard in its NOTIFY (docs/decisions/0014): a node
// holding the previous state builds the next one without reading the database. These tests
// prove the states built that way are exactly what a read gives, and that anything unusual
// (a missed number, a merge too big for NOTIFY, a change without a merge) falls back to a read.

async function newGame(keeper: TestUser): Promise<string> {
  const gameKey = await newGameOf(keeper, {
    gameName: 'Merge Cup',
    sportID: 2,
    homeTeamName: 'Owls',
    awayTeamName: 'Larks',
  });
  // A state with every part filled in: tags and comments must survive a merge untouched.
  expect(
    (
      await keeper.request({
        method: 'PUT',
        url: `${API}/games/${gameKey}/tags`,
        payload: { tags: ['SpringLeague'] },
      })
    ).statusCode,
  ).toBe(200);
  expect(
    (
      await keeper.request({
        method: 'POST',
        url: `${API}/games/${gameKey}/comments`,
        payload: { gameComment: 'Kick-off' },
      })
    ).statusCode,
  ).toBe(200);
  return gameKey;
}

/** A viewer of the game on the node at url, once it has the game's current state. */
async function watchGame(url: string, gameKey: string) {
  const topic = `game:${gameKey}`;
  const ws = await TestSocket.open(url);
  const first = await ws.subscribe(topic);
  return { topic, ws, first };
}

async function patch(keeper: TestUser, gameKey: string, body: Record<string, unknown>) {
  const res = await keeper.request({
    method: 'PATCH',
    url: `${API}/games/${gameKey}`,
    payload: body,
  });
  expect(res.statusCode).toBe(200);
}

describe.each(databaseKinds())('scoreboard changes carried in NOTIFY on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper'], listen: true });

  it('a patch reaches viewers without a database read, and the state equals a fresh read', async () => {
    const gameKey = await newGame(t.users.Keeper);
    const { topic, ws, first } = await watchGame(t.wsUrl, gameKey);
    const loads = t.app.hub.loads;
    const merges = t.app.hub.merges;
    for (let i = 1; i <= 5; i++) {
      await patch(t.users.Keeper, gameKey, { homeScore: i, gamePeriod: `Q${i}` });
      await ws.stateAt(topic, first.seq + i);
    }
    expect(t.app.hub.loads).toBe(loads);
    expect(t.app.hub.merges).toBe(merges + 5);
    const states = ws.states(topic);
    expect(states.map((s) => s.seq)).toEqual([0, 1, 2, 3, 4, 5].map((d) => first.seq + d));
    expect(states.at(-1)!.data).toEqual(await loadGameTopic(t.app.db, gameKey));
    ws.close();
  });

  it('a change without a merge (a comment) is read back, and merging resumes after it', async () => {
    const gameKey = await newGame(t.users.Keeper);
    const { topic, ws, first } = await watchGame(t.wsUrl, gameKey);
    const loads = t.app.hub.loads;
    await t.users.Keeper.request({
      method: 'POST',
      url: `${API}/games/${gameKey}/comments`,
      payload: { gameComment: 'Half time' },
    });
    await ws.stateAt(topic, first.seq + 1);
    expect(t.app.hub.loads).toBe(loads + 1);
    const merges = t.app.hub.merges;
    await patch(t.users.Keeper, gameKey, { awayScore: 3 });
    const last = await ws.stateAt(topic, first.seq + 2);
    expect(t.app.hub.merges).toBe(merges + 1);
    expect(last.data).toEqual(await loadGameTopic(t.app.db, gameKey));
    expect((last.data as { comments: { gameComment: string }[] }).comments[0]!.gameComment).toBe(
      'Half time',
    );
    ws.close();
  });

  it('a missed sequence number makes the node read the topic instead of merging', async () => {
    const gameKey = await newGame(t.users.Keeper);
    const { topic, ws, first } = await watchGame(t.wsUrl, gameKey);
    // A change this node never heard of: the number moves on with no NOTIFY, as if lost.
    await t.app.db.query('UPDATE topic_seq SET seq = seq + 1 WHERE topic = $1', [topic]);
    await t.app.db.query(
      `UPDATE games SET fields = fields || '{"homeTeamName":"Swifts"}' WHERE game_key = $1`,
      [gameKey],
    );
    const loads = t.app.hub.loads;
    const merges = t.app.hub.merges;
    await patch(t.users.Keeper, gameKey, { homeScore: 9 });
    const next = await ws.stateAt(topic, first.seq + 1);
    expect(next.seq).toBe(first.seq + 2);
    expect(t.app.hub.merges).toBe(merges);
    expect(t.app.hub.loads).toBe(loads + 1);
    // The read picked up the change the merge alone would have missed.
    expect((next.data as { top: { homeTeamName: string } }).top.homeTeamName).toBe('Swifts');
    expect(next.data).toEqual(await loadGameTopic(t.app.db, gameKey));
    ws.close();
  });

  it('a merge too big for a NOTIFY: PostgreSQL leaves it out and reads, PGlite hands it over', async () => {
    const gameKey = await newGame(t.users.Keeper);
    const { topic, ws, first } = await watchGame(t.wsUrl, gameKey);
    const loads = t.app.hub.loads;
    await t.app.db.tx(async (q) => {
      await t.app.hub.changed(q, [topic], { [topic]: { padding: 'x'.repeat(6000) } });
    });
    const next = await ws.stateAt(topic, first.seq + 1);
    if (kind.name === 'pglite') {
      // One process holds PGlite's database: the merge reaches its listeners as it is, at any
      // size, with no read (a real writer's merge is exactly what a read gives).
      expect(t.app.hub.loads).toBe(loads);
      expect(next.data).toHaveProperty('padding');
    } else {
      // What the database holds is what viewers must get, not the oversized merge.
      expect(t.app.hub.loads).toBe(loads + 1);
      expect(next.data).not.toHaveProperty('padding');
      expect(next.data).toEqual(await loadGameTopic(t.app.db, gameKey));
    }
    ws.close();
  });

  it('a key a merge sets to undefined keeps its value, as the JSON of a NOTIFY leaves it', async () => {
    const gameKey = await newGame(t.users.Keeper);
    const { topic, ws, first } = await watchGame(t.wsUrl, gameKey);
    const state = (await loadGameTopic(t.app.db, gameKey)) as Record<string, unknown>;
    expect(Object.keys(state)).toContain('comments');
    const loads = t.app.hub.loads;
    await t.app.db.tx(async (q) => {
      await t.app.hub.changed(q, [topic], { [topic]: { top: state.top, comments: undefined } });
    });
    const next = await ws.stateAt(topic, first.seq + 1);
    expect(t.app.hub.loads).toBe(loads);
    expect(next.data).toEqual(state);
    ws.close();
  });

  it('merges for many topics in one change stay within NOTIFY limits and all arrive', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => newGame(t.users.Keeper)));
    const viewers = await Promise.all(keys.map((k) => watchGame(t.wsUrl, k)));
    // 60 other topics push the change past one NOTIFY chunk.
    const filler = Array.from({ length: 60 }, (_, i) => `user:nobody-${i}:games`);
    const states = await Promise.all(keys.map((k) => loadGameTopic(t.app.db, k)));
    await t.app.db.tx(async (q) => {
      await t.app.hub.changed(
        q,
        [...filler, ...viewers.map((v) => v.topic)],
        Object.fromEntries(viewers.map((v, i) => [v.topic, { top: states[i]!.top }])),
      );
    });
    for (const [i, { topic, ws, first }] of viewers.entries()) {
      const next = await ws.stateAt(topic, first.seq + 1);
      expect(next.data).toEqual(states[i]);
    }
    viewers.forEach((v) => v.ws.close());
  });
});

const postgres = postgresKindIfAny();

describe.runIf(postgres)('a patch on node A, viewers on node B (one PostgreSQL)', () => {
  const t = useTwoNodes(postgres);

  it('node B builds each new state from the NOTIFY, with no read, equal to a fresh read', async () => {
    const keeper = await signInLocal(t.nodeA, 'Node A Keeper');
    const gameKey = await newGame(keeper);
    const { topic, ws: viewer, first } = await watchGame(t.urlB, gameKey);
    const loads = t.nodeB.hub.loads;
    for (let i = 1; i <= 3; i++) {
      await patch(keeper, gameKey, { homeScore: 10 * i });
      await viewer.stateAt(topic, first.seq + i);
    }
    expect(t.nodeB.hub.loads).toBe(loads);
    expect(t.nodeB.hub.merges).toBeGreaterThanOrEqual(3);
    expect(viewer.states(topic).at(-1)!.data).toEqual(await loadGameTopic(t.dbB, gameKey));
    viewer.close();
  });
});
