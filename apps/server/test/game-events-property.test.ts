import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@sagan/shared/realtime';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { foldGame, type GameEventBody } from '@sagan/shared/game-log';
import { API, databaseKinds, useTestApp } from './helpers.ts';
import { isState, TestSocket } from './ws-client.ts';

// DESIGN §10, as a property of the real server: whatever 2–4 phones do, in whatever order and
// overlap (taps, undos, voids, replays after a lost answer, the phone apps' absolute writes),
// the stored scoreboard is the fold of the stored log, every phone's live view ends on it, and
// no acknowledged event is missing from the log.

type Op =
  | { kind: 'tap'; client: number; action: object }
  | { kind: 'undo'; client: number }
  | { kind: 'void'; client: number; pick: number }
  | { kind: 'replay'; pick: number }
  | { kind: 'absolute'; values: Partial<ScoreboardFields> };

const team = fc.constantFrom('home', 'away');
const tapAction = fc.oneof(
  fc.record({ kind: fc.constant('score'), team, by: fc.constantFrom(1, 2, 3, -1) }),
  fc.record({
    kind: fc.constant('count'),
    field: fc.constantFrom('homeFouls', 'awayShots'),
    by: fc.constantFrom(1, -1),
  }),
  fc.record({ kind: fc.constant('toggle'), field: fc.constant('homePossession') }),
  fc.record({ kind: fc.constant('period'), step: fc.constantFrom(1, -1) }),
);
const op = (clients: number): fc.Arbitrary<Op> => {
  const client = fc.nat({ max: clients - 1 });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant('tap' as const), client, action: tapAction }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), client }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('void' as const), client, pick: fc.nat() }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('absolute' as const),
        values: fc.record({ homeScore: fc.nat({ max: 30 }) }, { requiredKeys: [] }),
      }),
    },
  );
};
/** Ops run in small groups at once, so the server sees them overlap. */
const scenario = fc.integer({ min: 2, max: 4 }).chain((clients) =>
  fc.record({
    clients: fc.constant(clients),
    groups: fc.array(fc.array(op(clients), { minLength: 1, maxLength: 3 }), {
      minLength: 3,
      maxLength: 10,
    }),
  }),
);

describe.each(databaseKinds())('event log convergence on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Keeper'], listen: true });

  it('server and every phone fold to the same state; no acknowledged event is lost', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ clients, groups }) => {
        run++;
        const created = await t.users.Keeper.request({
          method: 'POST',
          url: `${API}/games`,
          payload: { sportID: 2, gamePeriod: 'Q1' },
        });
        const { gameKey } = created.json<{ gameKey: string }>();
        const topic = `game:${gameKey}`;
        const phones = await Promise.all(
          Array.from({ length: clients }, () =>
            TestSocket.open(t.wsUrl, { cookie: t.users.Keeper.cookie }),
          ),
        );
        for (const p of phones) await p.subscribe(topic);
        /** Every request that was acknowledged, with its key and first answer. */
        const acked: {
          key: string;
          payload: object;
          url: string;
          method: 'POST' | 'PATCH';
          answer: string;
        }[] = [];
        let n = 0;
        const send = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
          const key = `r${run}-${n++}`;
          const res = await t.users.Keeper.request({
            method,
            url,
            payload,
            headers: { 'idempotency-key': key },
          });
          // Undo with nothing left to undo, or a void of what is voided already: refusals.
          expect([200, 404, 409], res.body).toContain(res.statusCode);
          if (res.statusCode === 200) acked.push({ key, payload, url, method, answer: res.body });
        };
        const events = `${API}/games/${gameKey}/events`;
        const run1 = async (o: Op) => {
          switch (o.kind) {
            case 'tap':
              return send('POST', events, { action: o.action, device: `phone${o.client}` });
            case 'undo':
              return send('POST', events, { action: { kind: 'undo' }, device: `phone${o.client}` });
            case 'void': {
              const target = acked[o.pick % Math.max(1, acked.length)];
              if (!target) return;
              return send('POST', events, {
                action: { kind: 'void', target: target.key },
                device: `phone${o.client}`,
              });
            }
            case 'absolute':
              return send('PATCH', `${API}/games/${gameKey}`, o.values);
            case 'replay': {
              // The answer was lost: the same request under the same key changes nothing.
              const first = acked[o.pick % Math.max(1, acked.length)];
              if (!first) return;
              const again = await t.users.Keeper.request({
                method: first.method,
                url: first.url,
                payload: first.payload,
                headers: { 'idempotency-key': first.key },
              });
              expect(again.statusCode).toBe(200);
              expect(again.body).toBe(first.answer);
            }
          }
        };
        for (const group of groups) await Promise.all(group.map(run1));

        const log = await t.db.query<{ event_id: string; body: GameEventBody }>(
          'SELECT event_id, body FROM game_events WHERE game_key = $1 ORDER BY seq, at',
          [gameKey],
        );
        const ids = new Set(log.map((e) => e.event_id));
        for (const a of acked) expect(ids.has(a.key), a.key).toBe(true);
        const folded = foldGame(
          defaultScoreboard,
          log.map((e) => ({ id: e.event_id, body: e.body })),
        );
        const top = (await t.app.inject({ url: `${API}/games/${gameKey}` })).json<{
          top: ScoreboardFields;
        }>().top;
        expect(top).toEqual({ ...folded, gameKey, timeStamp: expect.any(Number) });
        // Every phone's live view ends on the same scoreboard.
        for (const p of phones) {
          await p.waitFor(
            (m): m is ServerMessage =>
              isState(topic)(m) &&
              isDeepStrictEqual((m.data as { top: ScoreboardFields }).top, top),
          );
          p.close();
        }
      }),
      { numRuns: 6 },
    );
  }, 180_000);
});
