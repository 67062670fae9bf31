import { describe, expect, it } from 'vitest';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { foldGame, type GameEventBody } from '@sagan/shared/game-log';
import type { GameHistoryEntry } from '@sagan/shared/game-history';
import type { HeldGroup } from '@sagan/shared/topics/game-held';
import {
  API,
  databaseKinds,
  tapOn,
  type TestUser,
  useTestApp,
  newGameOf,
  eventCount,
} from './helpers.ts';
import { isState, TestSocket, type StateMessage } from './ws-client.ts';

// DESIGN §10 held events through the real server: a tap made in a set that had ended when it
// arrived is stored, not applied; the game's scorers see it on their private topic and decide
// (apply to its set where that changes no result, apply now, discard); the first decision wins.

describe.each(databaseKinds())('held events on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper', 'Rival'], listen: true });

  const newGame = (fields: object) => newGameOf(t.users.Keeper, fields);
  const act = (
    gameKey: string,
    device: string,
    action: object,
    { period, key, user = t.users.Keeper }: { period?: string; key?: string; user?: TestUser } = {},
  ) => tapOn(user, gameKey, action, { device, key, period });
  const top = async (gameKey: string) =>
    (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{ top: ScoreboardFields }>().top;
  const held = async (gameKey: string) =>
    (await t.app.hub.current(`gameheld:${gameKey}`)).data as { groups: HeldGroup[] };
  async function expectSnapshotIsFold(gameKey: string) {
    const log = await t.db.query<{ event_id: string; body: GameEventBody; held: boolean }>(
      'SELECT event_id, body, held FROM game_events WHERE game_key = $1 ORDER BY seq, at',
      [gameKey],
    );
    const folded = foldGame(
      defaultScoreboard,
      log.map((e) => ({ id: e.event_id, body: e.body, held: e.held })),
    );
    expect(await top(gameKey)).toEqual({ ...folded, gameKey, timeStamp: expect.any(Number) });
  }
  const ace = (team: 'home' | 'away' = 'home') => ({ kind: 'score', team, by: 1 });

  /** Scenario 2: Set 2 won 2–0 by the Aces on phone B, then Set 3 begins at 0–0. */
  async function setTwoWonByB(): Promise<string> {
    const gameKey = await newGame({
      sportID: 6,
      gamePeriod: 'Set 2',
      homeTeamName: 'Aces',
      awayTeamName: 'Blocks',
    });
    for (let i = 0; i < 2; i++) {
      expect((await act(gameKey, 'phone-b', ace(), { period: 'Set 2' })).statusCode).toBe(200);
    }
    const won = await act(
      gameKey,
      'phone-b',
      { kind: 'setWon', team: 'home' },
      { period: 'Set 2' },
    );
    expect(won.statusCode).toBe(200);
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Set 3', homeScore: 0, awayScore: 0 });
    return gameKey;
  }
  /** Phone A, offline through the end of Set 2, sends its taps made in Set 2. */
  async function lateTaps(gameKey: string, team: 'home' | 'away', n = 3): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await act(gameKey, 'phone-a', ace(team), { period: 'Set 2' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ held: true, arrivedIn: 'Set 3', changed: false });
      ids.push(res.json<{ eventId: string }>().eventId);
    }
    return ids;
  }

  it('scenario 2: taps made in Set 2 are held, shown to the scorers, and applied to Set 2', async () => {
    const gameKey = await setTwoWonByB();
    const viewer = await TestSocket.open(t.wsUrl);
    await viewer.subscribe(`game:${gameKey}`);
    const scorer = await TestSocket.open(t.wsUrl, { cookie: t.users.Keeper.cookie });
    await scorer.subscribe(`gameheld:${gameKey}`);

    const ids = await lateTaps(gameKey, 'home');
    // The public board does not show 3–0 in Set 3, at any frame.
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Set 3', homeScore: 0 });
    const topic = `gameheld:${gameKey}`;
    const notice = await scorer.waitFor(
      (m): m is StateMessage =>
        isState(topic)(m) && (m.data as { groups: HeldGroup[] }).groups[0]?.events.length === 3,
    );
    expect((notice.data as { groups: HeldGroup[] }).groups).toEqual([
      {
        period: 'Set 2',
        arrivedIn: 'Set 3',
        events: ids.map((eventId) => ({
          eventId,
          by: 'Keeper',
          device: 'phone-a',
          at: expect.any(Number),
        })),
        // 5–0 instead of 2–0: the Aces still won Set 2.
        applyToPeriod: true,
      },
    ]);
    await expectSnapshotIsFold(gameKey);

    const decide = await act(
      gameKey,
      'phone-b',
      { kind: 'resolve', events: ids, apply: 'period' },
      { key: 'decide-1' },
    );
    expect(decide.statusCode, decide.body).toBe(200);
    expect(decide.json()).toMatchObject({ note: '3 held taps made in Set 2: applied to Set 2' });
    // Set 2's points are not on the board once it ended: Set 3 stays 0–0.
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Set 3', homeScore: 0, awayScore: 0 });
    await scorer.waitFor(
      (m): m is StateMessage =>
        isState(topic)(m) && (m.data as { groups: HeldGroup[] }).groups.length === 0,
    );
    await expectSnapshotIsFold(gameKey);
    const frames = viewer.states(`game:${gameKey}`);
    for (const f of frames) {
      const shown = (f.data as { top: ScoreboardFields }).top;
      expect(shown.gamePeriod === 'Set 3' && shown.homeScore > 0).toBe(false);
    }

    // The first decision wins: a later one is told what was decided; a replay gets its answer.
    const again = await act(gameKey, 'phone-a', { kind: 'resolve', events: ids, apply: 'now' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'Already decided by Keeper: applied to Set 2',
      decided: { apply: 'period', period: 'Set 2', by: 'Keeper', at: expect.any(Number) },
    });
    const replay = await act(
      gameKey,
      'phone-b',
      { kind: 'resolve', events: ids, apply: 'period' },
      { key: 'decide-1' },
    );
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toBe(decide.body);
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Set 3', homeScore: 0 });
    // A decision stands: it is not voided either.
    const undoDecision = await act(gameKey, 'phone-b', {
      kind: 'void',
      target: decide.json<{ eventId: string }>().eventId,
    });
    expect(undoDecision.statusCode).toBe(409);

    // The owner's Changes list shows the held taps and what became of them.
    const history = (await t.app.hub.current(`gamehistory:${gameKey}`)).data as {
      entries: GameHistoryEntry[];
    };
    const lateOnes = history.entries.filter((e) => e.eventId && ids.includes(e.eventId));
    expect(lateOnes.map((e) => [e.held, e.period])).toEqual([
      ['period', 'Set 2'],
      ['period', 'Set 2'],
      ['period', 'Set 2'],
    ]);
    expect(history.entries.find((e) => e.kind === 'resolve')?.note).toBe(
      '3 held taps made in Set 2: applied to Set 2',
    );
    viewer.close();
    scorer.close();
  });

  it('not offered in Set 2 where it would change who won it; applied now, they count now', async () => {
    const gameKey = await setTwoWonByB();
    // Three Blocks points would turn Set 2's 2–0 for the Aces into 2–3.
    const ids = await lateTaps(gameKey, 'away');
    expect((await held(gameKey)).groups).toMatchObject([{ period: 'Set 2', applyToPeriod: false }]);
    const toSet2 = await act(gameKey, 'phone-a', { kind: 'resolve', events: ids, apply: 'period' });
    expect(toSet2.statusCode).toBe(409);
    expect(toSet2.json<{ error: string }>().error).toMatch(/would change who won it/);
    expect((await held(gameKey)).groups).toHaveLength(1);
    const now = await act(gameKey, 'phone-a', { kind: 'resolve', events: ids, apply: 'now' });
    expect(now.statusCode).toBe(200);
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Set 3', homeScore: 0, awayScore: 3 });
    expect((await held(gameKey)).groups).toEqual([]);
    await expectSnapshotIsFold(gameKey);
  });

  it('discarded, nothing changes and nothing is lost: the taps stay in the log', async () => {
    const gameKey = await setTwoWonByB();
    const ids = await lateTaps(gameKey, 'home', 2);
    const before = await top(gameKey);
    const res = await act(gameKey, 'phone-b', { kind: 'resolve', events: ids, apply: 'discard' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ changed: false });
    expect({ ...(await top(gameKey)), timeStamp: 0 }).toEqual({ ...before, timeStamp: 0 });
    const kept = await t.db.query<{ held: boolean; resolved_by: string | null }>(
      'SELECT held, resolved_by FROM game_events WHERE game_key = $1 AND event_id = ANY($2)',
      [gameKey, ids],
    );
    expect(kept).toEqual(ids.map(() => ({ held: true, resolved_by: res.json().eventId })));
    await expectSnapshotIsFold(gameKey);
  });

  it('Undo takes back a held tap of this phone: it no longer waits', async () => {
    const gameKey = await setTwoWonByB();
    const ids = await lateTaps(gameKey, 'home', 2);
    const undo = await act(gameKey, 'phone-a', { kind: 'undo' });
    expect(undo.statusCode).toBe(200);
    expect((await held(gameKey)).groups[0]?.events.map((e) => e.eventId)).toEqual([ids[0]]);
    // A decision naming the undone tap is refused whole, so nothing is half-decided.
    const res = await act(gameKey, 'phone-b', { kind: 'resolve', events: ids, apply: 'now' });
    expect(res.statusCode).toBe(409);
    expect((await held(gameKey)).groups[0]?.events).toHaveLength(1);
    await expectSnapshotIsFold(gameKey);
  });

  it('bad decisions get clear refusals and write nothing', async () => {
    const gameKey = await setTwoWonByB();
    const [id] = await lateTaps(gameKey, 'home', 1);
    const counted = await act(gameKey, 'phone-b', ace(), { period: 'Set 3' });
    const count = () => eventCount(t.db, gameKey);
    const before = await count();
    const cases: [object, number][] = [
      [{ kind: 'resolve', events: [], apply: 'now' }, 400],
      [{ kind: 'resolve', events: [id, id], apply: 'now' }, 400],
      [{ kind: 'resolve', events: [id], apply: 'later' }, 400],
      [{ kind: 'resolve', events: ['nosuchevent'], apply: 'now' }, 404],
      [{ kind: 'resolve', events: [counted.json().eventId], apply: 'now' }, 409],
    ];
    for (const [action, status] of cases) {
      const res = await act(gameKey, 'phone-b', action);
      expect(res.statusCode, JSON.stringify(action)).toBe(status);
    }
    // Only those who may score decide: another user is refused.
    const rival = await act(
      gameKey,
      'phone-r',
      { kind: 'resolve', events: [id], apply: 'discard' },
      { user: t.users.Rival },
    );
    expect(rival.statusCode).toBe(403);
    expect(await count()).toBe(before);
    expect((await held(gameKey)).groups[0]?.events).toHaveLength(1);
  });

  it('the scorers’ topic is refused to anyone who may not score the game', async () => {
    const gameKey = await setTwoWonByB();
    const topic = `gameheld:${gameKey}`;
    const answer = (ws: TestSocket) => ws.subscribeAnswer(topic);
    const anonymous = await TestSocket.open(t.wsUrl);
    const rival = await TestSocket.open(t.wsUrl, { cookie: t.users.Rival.cookie });
    const owner = await TestSocket.open(t.wsUrl, { cookie: t.users.Keeper.cookie });
    expect((await answer(anonymous)).type).toBe('error');
    expect((await answer(rival)).type).toBe('error');
    expect(await answer(owner)).toMatchObject({ type: 'state', data: { groups: [] } });
    for (const ws of [anonymous, rival, owner]) ws.close();
  });

  it('basketball runs on across quarters: a late tap counts on the total, its quarter recorded', async () => {
    const gameKey = await newGame({ sportID: 2, gamePeriod: 'Q3', homeScore: 40 });
    const res = await act(
      gameKey,
      'phone-a',
      { kind: 'score', team: 'home', by: 2 },
      { period: 'Q2' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('held');
    expect(await top(gameKey)).toMatchObject({ gamePeriod: 'Q3', homeScore: 42 });
    const rows = await t.db.query<{ period: string; held: boolean }>(
      'SELECT period, held FROM game_events WHERE game_key = $1 AND event_id = $2',
      [gameKey, res.json().eventId],
    );
    expect(rows).toEqual([{ period: 'Q2', held: false }]);
    // A set label volleyball does not know applies now.
    const volley = await newGame({ sportID: 6, gamePeriod: 'Set 1' });
    const odd = await act(volley, 'phone-a', ace(), { period: 'Warm-up' });
    expect(odd.json()).not.toHaveProperty('held');
    expect((await top(volley)).homeScore).toBe(1);
  });
});
