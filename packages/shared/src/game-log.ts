import type { ScoreboardFields } from './scoreboard.ts';
import { applyIntent, type Intent } from './scorekeeping.ts';

// DESIGN §10: a game is an append-only log of events, and its scoreboard is the fold of the
// sport's rules (applyIntent) over the events that count. Zod-free: the server folds with it
// when an event is voided, the scorekeeper screen folds its queued taps over the live state,
// and the property test folds what every client saw.

/** Takes back one earlier event (an undo, or the owner's correction); a void can be voided. */
export interface VoidBody {
  kind: 'void';
  target: string;
}

/** What one event of the log holds: an intent ("home +2"), a "set" of fields, or a void. */
export type GameEventBody = Intent | VoidBody;

/** What the web sends for Undo: the server turns it into a void of this device's last event. */
export interface UndoAction {
  kind: 'undo';
}

/** A scorekeeper's action as the web queues it. */
export type GameAction = Intent | UndoAction | VoidBody;

export interface LoggedEvent {
  id: string;
  body: GameEventBody;
}

/**
 * The events that count: an event is taken back by a void that itself counts. Voids only name
 * earlier events, so one pass from the newest settles every chain (a void of a void of...).
 */
export function countedEvents<E extends LoggedEvent>(events: readonly E[]): E[] {
  const voided = new Set<string>();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.body.kind === 'void' && !voided.has(e.id)) voided.add(e.body.target);
  }
  return events.filter((e) => !voided.has(e.id) && e.body.kind !== 'void');
}

/** The scoreboard the log's counted events make, from `start` (the default scoreboard). */
export function foldGame(
  start: ScoreboardFields,
  events: readonly LoggedEvent[],
): ScoreboardFields {
  let fields = start;
  for (const e of countedEvents(events)) {
    const body = e.body as Intent;
    fields = { ...fields, ...applyIntent(fields, body) };
  }
  return fields;
}

/** The fields that differ between two scoreboards, as from/to pairs (the Changes list's). */
export function fieldChanges(
  before: ScoreboardFields,
  after: ScoreboardFields,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of Object.keys(after) as (keyof ScoreboardFields)[]) {
    if (before[k] !== after[k]) out[k] = { from: before[k], to: after[k] };
  }
  return out;
}
