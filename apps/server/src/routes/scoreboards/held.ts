import { defaultScoreboard } from '@sagan/shared/scoreboard';
import {
  foldGame,
  placeInPeriod,
  type GameEventBody,
  type LoggedEvent,
  type ResolveAction,
  type ResolveBody,
} from '@sagan/shared/game-log';
import type { HeldGroup } from '@sagan/shared/topics/game-held';
import type { Queryable } from '../../db/db.ts';
import type { Decision, LockedGame } from '../../lib/game-write.ts';
import { badRequest, HttpError, notFound } from '../../lib/http-errors.ts';

// DESIGN §10 held events: a tap made in a period that had ended when it reached the server is
// stored, not folded, and waits for a scorer's decision (apply it to its period where that
// changes no result, apply it now, or discard it). The decision is itself an event of the log;
// the first one wins. What waits is shown on the scorers' private topic, gameheld:{gameKey}.

/** One event of the log as the fold and the decisions read it. */
export interface LogRow {
  event_id: string;
  uid: string;
  display_name: string | null;
  device: string | null;
  body: GameEventBody;
  changes: Record<string, unknown>;
  period: string;
  at: number | string;
  voided_by: string | null;
  held: boolean;
  resolved_by: string | null;
  /** The period the game was at when a held event arrived. */
  arrived_in: string | null;
  baseline: boolean;
}

/** The whole log of a game, in its order. */
export function readLog(q: Queryable, gameKey: string): Promise<LogRow[]> {
  // Baselines are the only events not written by a request, so the only ones without answer.
  return q.query<LogRow>(
    `SELECT e.event_id, e.uid, u.display_name, e.device, e.body, e.changes, e.period, e.at,
            e.voided_by, e.held, e.resolved_by, e.answer ->> 'arrivedIn' AS arrived_in,
            e.answer IS NULL AS baseline
     FROM game_events e LEFT JOIN users u ON u.uid = e.uid
     WHERE e.game_key = $1 ORDER BY e.seq, e.at`,
    [gameKey],
  );
}

export const logged = (rows: readonly LogRow[]): LoggedEvent[] =>
  rows.map((e) => ({ id: e.event_id, body: e.body, ...(e.held ? { held: true } : {}) }));

/** The scorers' topic: the held events that wait, grouped by the period they were made in. */
export async function loadGameHeld(
  q: Queryable,
  gameKey: string,
): Promise<{ groups: HeldGroup[] } | null> {
  const waiting = await q.query<{ exists: boolean; waiting: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM games WHERE game_key = $1) AS exists,
            EXISTS (SELECT 1 FROM game_events WHERE game_key = $1 AND held
                    AND resolved_by IS NULL AND voided_by IS NULL) AS waiting`,
    [gameKey],
  );
  if (!waiting[0]?.exists) return null;
  if (!waiting[0].waiting) return { groups: [] };
  const log = await readLog(q, gameKey);
  const events = logged(log);
  const byPeriod = new Map<string, LogRow[]>();
  for (const e of log) {
    if (!e.held || e.resolved_by || e.voided_by) continue;
    byPeriod.set(e.period, [...(byPeriod.get(e.period) ?? []), e]);
  }
  return {
    groups: [...byPeriod].map(([period, rows]) => ({
      period,
      arrivedIn: rows[0]!.arrived_in ?? '',
      events: rows.map((e) => ({
        eventId: e.event_id,
        by: e.display_name,
        device: e.device,
        at: Number(e.at),
      })),
      applyToPeriod: !!placeInPeriod(defaultScoreboard, events, logged(rows), period),
    })),
  };
}

const DECIDED: Record<ResolveBody['apply'], (period: string) => string> = {
  period: (period) => `applied to ${period}`,
  now: () => 'applied now',
  discard: () => 'discarded',
};

/**
 * A scorer's decision on held events made in one period. The first decision on an event wins:
 * a later one is refused with 409 and what was decided, by whom and when.
 */
export async function decideHeld(
  q: Queryable,
  gameKey: string,
  game: LockedGame,
  eventId: string,
  action: ResolveAction,
): Promise<Decision> {
  const log = await readLog(q, gameKey);
  const byId = new Map(log.map((e) => [e.event_id, e]));
  const named = action.events.map((id) => byId.get(id));
  if (named.some((e) => !e)) throw notFound('No event with this id in this game');
  const rows = named as LogRow[];
  if (rows.some((e) => !e.held)) {
    throw new HttpError(
      409,
      'Only held taps wait for a decision: this one counted when it arrived',
    );
  }
  const taken = rows.find((e) => e.resolved_by);
  const first = taken?.resolved_by ? byId.get(taken.resolved_by) : undefined;
  if (taken && first?.body.kind === 'resolve') {
    const how = DECIDED[first.body.apply](taken.period);
    throw new HttpError(
      409,
      `Already decided by ${first.display_name ?? 'another scorer'}: ${how}`,
      {
        decided: {
          apply: first.body.apply,
          period: taken.period,
          by: first.display_name,
          at: Number(first.at),
        },
      },
    );
  }
  if (rows.some((e) => e.voided_by)) {
    throw new HttpError(409, 'One of these taps was taken back already');
  }
  const period = rows[0]!.period;
  if (rows.some((e) => e.period !== period)) {
    throw badRequest('Decide the held taps of one period at a time');
  }
  const events = logged(log);
  let body: ResolveBody = { kind: 'resolve', events: action.events, apply: action.apply };
  if (action.apply === 'period') {
    const place = placeInPeriod(defaultScoreboard, events, logged(rows), period);
    if (!place) {
      throw new HttpError(
        409,
        `Applying them to ${period} would change who won it: apply them now or discard them`,
      );
    }
    body = { ...body, before: place.before };
  }
  const fields =
    action.apply === 'discard'
      ? game.fields
      : foldGame(defaultScoreboard, [...events, { id: eventId, body }]);
  const taps = rows.length === 1 ? '1 held tap' : `${rows.length} held taps`;
  return {
    body,
    fields,
    resolves: action.events,
    heldChanged: true,
    note: `${taps} made in ${period}: ${DECIDED[action.apply](period)}`,
  };
}
