import { describe, expect, it } from 'vitest';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { foldGame, type GameEventBody } from '@sagan/shared/game-log';
import { migrate } from '../src/db/migrate.ts';
import { API, databaseKinds, tapOn, newGameOf, type TestUser, useTestApp } from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

// DESIGN §10: a game's event log through the real server: intents, the phone apps' "set"
// events, Undo (this device's own last event), voids, replays, and the snapshot always being
// the fold of the log.

describe.each(databaseKinds())('game event log on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper', 'Rival'], listen: true });

  const newGame = (body: object = {}, user: TestUser = t.users.Keeper) => newGameOf(user, body);
  const act = (
    gameKey: string,
    device: string,
    action: object,
    {
      key,
      user = t.users.Keeper,
      baseSeq,
    }: { key?: string; user?: TestUser; baseSeq?: number } = {},
  ) => tapOn(user, gameKey, action, { device, key, baseSeq });
  const patch = (gameKey: string, payload: object) =>
    t.users.Keeper.request({ method: 'PATCH', url: `${API}/games/${gameKey}`, payload });
  const top = async (gameKey: string) =>
    (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{ top: ScoreboardFields }>().top;
  const log = (gameKey: string) =>
    t.db.query<{
      event_id: string;
      body: GameEventBody;
      device: string | null;
      voided_by: string | null;
    }>(
      'SELECT event_id, body, device, voided_by FROM game_events WHERE game_key = $1 ORDER BY seq, at',
      [gameKey],
    );
  /** The stored snapshot is the fold of the stored log. */
  async function expectSnapshotIsFold(gameKey: string) {
    const events = (await log(gameKey)).map((e) => ({ id: e.event_id, body: e.body }));
    const folded = foldGame(defaultScoreboard, events);
    expect(await top(gameKey)).toEqual({ ...folded, gameKey, timeStamp: expect.any(Number) });
  }
  const score = (team: 'home' | 'away', by: number) => ({ kind: 'score', team, by });

  it('scenario 1: two phones, one game; Undo takes back only this phone’s own last tap', async () => {
    const gameKey = await newGame({ gameName: 'Rockets v Comets', sportID: 2 });
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(`game:${gameKey}`);
    for (let i = 0; i < 6; i++)
      expect((await act(gameKey, 'phone-a', score('home', 2))).statusCode).toBe(200);
    const b = await act(gameKey, 'phone-b', score('home', 3));
    expect(b.statusCode).toBe(200);
    expect((await top(gameKey)).homeScore).toBe(15);
    const undo = await act(gameKey, 'phone-a', { kind: 'undo' });
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toMatchObject({ changed: true });
    expect((await top(gameKey)).homeScore).toBe(13);
    const seen = await viewer.waitFor(
      (m): m is Extract<typeof m, { type: 'state' }> =>
        isState(`game:${gameKey}`)(m) &&
        (m.data as { top: { homeScore: number } }).top.homeScore === 13,
    );
    expect(seen).toBeTruthy();
    viewer.close();
    // The undone tap is voided, not deleted; the void names it.
    const events = await log(gameKey);
    const voids = events.filter((e) => e.body.kind === 'void');
    expect(voids).toHaveLength(1);
    const target = (voids[0]!.body as { target: string }).target;
    const undone = events.find((e) => e.event_id === target)!;
    expect(undone).toMatchObject({ device: 'phone-a', voided_by: voids[0]!.event_id });
    expect(events.filter((e) => e.voided_by === null && e.body.kind === 'score')).toHaveLength(6);
    // Phone B's undo takes back its own +3, not phone A's.
    expect((await act(gameKey, 'phone-b', { kind: 'undo' })).statusCode).toBe(200);
    expect((await top(gameKey)).homeScore).toBe(10);
    const nothing = await act(gameKey, 'phone-b', { kind: 'undo' });
    expect(nothing.statusCode).toBe(404);
    await expectSnapshotIsFold(gameKey);
  });

  it('intents are never refused as stale; a replayed key applies once', async () => {
    const gameKey = await newGame();
    expect((await patch(gameKey, { homeScore: 4 })).statusCode).toBe(200);
    const first = await act(gameKey, 'p', score('home', 1), { key: 'tap-1', baseSeq: 0 });
    expect(first.statusCode).toBe(200);
    const again = await act(gameKey, 'p', score('home', 1), { key: 'tap-1', baseSeq: 0 });
    expect(again.json()).toEqual(first.json());
    expect((await top(gameKey)).homeScore).toBe(5);
    // The same key with another body is the client's bug.
    expect((await act(gameKey, 'p', score('away', 1), { key: 'tap-1' })).statusCode).toBe(422);
    // Racing replays: one event.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => act(gameKey, 'p', score('away', 2), { key: 'tap-2' })),
    );
    expect(racing.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(racing.map((r) => r.body)).size).toBe(1);
    expect((await top(gameKey)).awayScore).toBe(2);
    await expectSnapshotIsFold(gameKey);
  });

  it('the phone apps’ PATCH is a "set" event holding only what it changes', async () => {
    const gameKey = await newGame({ homeScore: 1, gamePeriod: 'Q1' });
    expect(
      (await patch(gameKey, { homeScore: 3, gamePeriod: 'Q1', awayScore: 0 })).statusCode,
    ).toBe(200);
    const events = await log(gameKey);
    expect(events.map((e) => e.body)).toEqual([
      { kind: 'set', values: expect.objectContaining({ homeScore: 1, gamePeriod: 'Q1' }) },
      { kind: 'set', values: { homeScore: 3 } },
    ]);
    expect(events[1]!.device).toBeNull();
  });

  it('an edit sent with its device is that device’s to undo', async () => {
    const gameKey = await newGame({ gamePeriod: 'Q4' });
    await act(gameKey, 'laptop', score('home', 1));
    expect((await patch(gameKey, { gamePeriod: 'Final', device: 'laptop' })).statusCode).toBe(200);
    expect((await act(gameKey, 'laptop', { kind: 'undo' })).statusCode).toBe(200);
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Q4', homeScore: 1 });
    expect((await patch(gameKey, { device: 'not a device' })).statusCode).toBe(400);
  });

  it('a void a later absolute edit overwrote changes nothing and says so', async () => {
    const gameKey = await newGame();
    const tap = await act(gameKey, 'p', score('home', 2), { key: 'tap-over' });
    expect((await patch(gameKey, { homeScore: 7 })).statusCode).toBe(200);
    const res = await act(gameKey, 'p', { kind: 'void', target: 'tap-over' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ changed: boolean; note: string; overwrittenAt: number }>();
    expect(body.changed).toBe(false);
    expect(body.note).toMatch(/overwrote/);
    expect(body.overwrittenAt).toBeGreaterThan(0);
    expect(tap.statusCode).toBe(200);
    expect((await top(gameKey)).homeScore).toBe(7);
    await expectSnapshotIsFold(gameKey);
  });

  it('the owner voids any event and can void the void; others get 403; a baseline stays', async () => {
    const gameKey = await newGame({ sportID: 2 });
    await act(gameKey, 'p', score('home', 3), { key: 'three' });
    await act(gameKey, 'p', score('away', 1));
    const voided = await act(
      gameKey,
      'owner-laptop',
      { kind: 'void', target: 'three' },
      { key: 'v1' },
    );
    expect(voided.statusCode).toBe(200);
    expect(await top(gameKey)).toMatchObject({ homeScore: 0, awayScore: 1 });
    expect((await act(gameKey, 'x', { kind: 'void', target: 'three' })).statusCode).toBe(409);
    expect((await act(gameKey, 'owner-laptop', { kind: 'void', target: 'v1' })).statusCode).toBe(
      200,
    );
    expect(await top(gameKey)).toMatchObject({ homeScore: 3, awayScore: 1 });
    expect((await act(gameKey, 'x', { kind: 'void', target: 'baseline' })).statusCode).toBe(409);
    expect((await act(gameKey, 'x', { kind: 'void', target: 'nothere' })).statusCode).toBe(404);
    const rival = await act(gameKey, 'r', score('home', 1), { user: t.users.Rival });
    expect(rival.statusCode).toBe(403);
    expect((await act(gameKey, 'r', { kind: 'undo' }, { user: t.users.Rival })).statusCode).toBe(
      403,
    );
    expect((await act(gameKey, 'r', { kind: 'score', team: 'home', by: 0 })).statusCode).toBe(400);
    expect((await act(gameKey, 'r', { kind: 'set', values: { homeScore: 1 } })).statusCode).toBe(
      400,
    );
    await expectSnapshotIsFold(gameKey);
  });

  it('voiding a tennis point before the game it decided folds the game back', async () => {
    const gameKey = await newGame({ sportID: 8, maxSets: 3, gamePeriod: 'Set 1' });
    const point = (n: number) =>
      act(gameKey, 'p', { kind: 'tennisPoint', team: 'home' }, { key: `pt${n}` });
    for (let n = 1; n <= 4; n++) expect((await point(n)).statusCode).toBe(200);
    expect(await top(gameKey)).toMatchObject({ homeScoreGames: 1, homeSet1: 1 });
    expect((await act(gameKey, 'p', { kind: 'void', target: 'pt2' })).statusCode).toBe(200);
    // Three points: 40–0, the game not won.
    expect(await top(gameKey)).toMatchObject({
      homeScoreGames: 0,
      homeSet1: 0,
      homeScorePointsTennis: '40',
    });
    await expectSnapshotIsFold(gameKey);
  });

  it('the Changes list says who made each event, on which device, and which are voided', async () => {
    const gameKey = await newGame();
    await act(gameKey, 'phone-a', score('home', 1), { key: 'h1' });
    await act(gameKey, 'phone-a', { kind: 'undo' });
    const { data } = await t.app.hub.current(`gamehistory:${gameKey}`);
    const entries = (
      data as {
        entries: {
          eventId?: string;
          by?: string;
          device?: string;
          kind?: string;
          voided?: boolean;
        }[];
      }
    ).entries;
    expect(entries.map((e) => [e.kind, e.device, e.by, e.voided])).toEqual([
      ['void', 'phone-a', 'Keeper', false],
      ['score', 'phone-a', 'Keeper', true],
    ]);
  });
});

describe.each(databaseKinds())('game event log migrated onto existing games on $name', (kind) => {
  const t = useTestApp(kind, {
    emptyDatabase: true,
    users: ['Keeper'],
    async beforeBuild(db) {
      // A game as the release before the log stored it: fields, a seq, two history rows.
      await migrate(db, { upTo: '0040_playcount_sideline' });
      await db.query(`INSERT INTO users (uid, display_name) VALUES ('old-owner', 'Old owner')`);
      await db.query(
        `INSERT INTO games (game_key, uid, fields, time_stamp) VALUES ('oldGame1', 'old-owner', $1, 1)`,
        [JSON.stringify({ gameName: 'Old', homeScore: 7, gamePeriod: 'Q3' })],
      );
      await db.query(`INSERT INTO topic_seq (topic, seq) VALUES ('game:oldGame1', 12)`);
      await db.query(
        `INSERT INTO game_history (game_key, seq, at, changes) VALUES
           ('oldGame1', 11, 1000, '{"homeScore":{"from":5,"to":6}}'),
           ('oldGame1', 12, 2000, '{"homeScore":{"from":6,"to":7}}')`,
      );
    },
  });

  it('starts each log with a baseline of the stored state; old history stays readable', async () => {
    const events = await t.db.query<{ event_id: string; seq: number | string; body: unknown }>(
      `SELECT event_id, seq, body FROM game_events WHERE game_key = 'oldGame1'`,
    );
    expect(events).toEqual([
      {
        event_id: 'baseline',
        seq: expect.anything(),
        body: { kind: 'set', values: { gameName: 'Old', homeScore: 7, gamePeriod: 'Q3' } },
      },
    ]);
    expect(Number(events[0]!.seq)).toBe(12);
    const { data } = await t.app.hub.current('gamehistory:oldGame1');
    const entries = (data as { entries: { seq: number; eventId?: string }[] }).entries;
    expect(entries.map((e) => [e.seq, e.eventId])).toEqual([
      [12, undefined],
      [11, undefined],
    ]);
  });
});
