import type { ScoreboardFields } from './scoreboard.ts';
import { applyIntent, periodLabels, type Intent } from './scorekeeping.ts';

// DESIGN §10: a game is an append-only log of events, and its scoreboard is the fold of the
// sport's rules (applyIntent) over the events that count. Zod-free: the server folds with it
// when an event is voided, the scorekeeper screen folds its queued taps over the live state,
// and the property test folds what every client saw.

/** Takes back one earlier event (an undo, or the owner's correction); a void can be voided. */
export interface VoidBody {
  kind: 'void';
  target: string;
}

/** How a scorer decides what becomes of held events (DESIGN §10 "held events"). */
export type HeldApply = 'period' | 'now' | 'discard';

/** What a scorer sends to decide a group of held events. */
export interface ResolveAction {
  kind: 'resolve';
  events: string[];
  apply: HeldApply;
}

/** The decision as logged: for 'period', the event that ended their period, folded after them. */
export interface ResolveBody extends ResolveAction {
  before?: string;
}

/**
 * What one event of the log holds: an intent ("home +2"), a "set" of fields, a void, or the
 * decision on held events.
 */
export type GameEventBody = Intent | VoidBody | ResolveBody;

/** What the web sends for Undo: the server turns it into a void of this device's last event. */
export interface UndoAction {
  kind: 'undo';
}

/** A scorekeeper's action as the web queues it. */
export type GameAction = Intent | UndoAction | VoidBody | ResolveAction;

export interface LoggedEvent {
  id: string;
  body: GameEventBody;
  /** Made in a period that had ended when it arrived: not folded until a scorer decides. */
  held?: boolean;
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

/** One event as the fold applied it: the scoreboard before and after it. */
export interface FoldStep {
  id: string;
  before: ScoreboardFields;
  after: ScoreboardFields;
}

/**
 * The fold, step by step. A held event counts only once decided: applied now (where its
 * decision stands in the log), applied to its period (just before the event that ended that
 * period), or discarded. `extra` places more held events before an event, to try a decision.
 */
export function foldSteps(
  start: ScoreboardFields,
  events: readonly LoggedEvent[],
  extra?: { before: string; events: readonly LoggedEvent[] },
): FoldStep[] {
  const counted = countedEvents(events);
  const decided = new Map<string, { by: string; body: ResolveBody }>();
  for (const e of counted) {
    if (e.body.kind !== 'resolve') continue;
    for (const id of e.body.events)
      if (!decided.has(id)) decided.set(id, { by: e.id, body: e.body });
  }
  const placed = new Map<string, LoggedEvent[]>();
  const place = (at: string, e: LoggedEvent) => placed.set(at, [...(placed.get(at) ?? []), e]);
  for (const e of counted) {
    const d = e.held ? decided.get(e.id) : undefined;
    if (!d || d.body.apply === 'discard') continue;
    if (d.body.apply === 'now') place(d.by, e);
    else if (d.body.before) place(d.body.before, e);
  }
  if (extra) for (const e of extra.events) place(extra.before, e);
  const steps: FoldStep[] = [];
  let fields = start;
  const apply = (e: LoggedEvent) => {
    const after = { ...fields, ...applyIntent(fields, e.body as Intent) };
    steps.push({ id: e.id, before: fields, after });
    fields = after;
  };
  for (const e of counted) {
    const resolve = e.body.kind === 'resolve';
    // Applied to their period: before the event that ended it. Applied now: at the decision.
    if (!resolve) for (const h of placed.get(e.id) ?? []) apply(h);
    if (e.held) continue;
    if (resolve) for (const h of placed.get(e.id) ?? []) apply(h);
    else apply(e);
  }
  return steps;
}

/** The scoreboard the log's counted events make, from `start` (the default scoreboard). */
export function foldGame(
  start: ScoreboardFields,
  events: readonly LoggedEvent[],
): ScoreboardFields {
  const steps = foldSteps(start, events);
  return steps.length ? steps[steps.length - 1]!.after : start;
}

const samePeriod = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Sports whose score belongs to a period (a volleyball set's points, a tennis set's games):
 * a tap made in a set that has ended would change the wrong set. Elsewhere the score runs on
 * across periods, and a late tap counts on the total (its period is still recorded).
 */
export function scoresPerPeriod(sportID: number): boolean {
  return sportID === 6 || sportID === 8;
}

/**
 * Whether an action made in `madeIn` is held when it reaches a game at `now`: in a sport that
 * scores per period, an intent made in one of its periods that is no longer the game's. A
 * label the rules do not know (or none, as from the phone apps) applies now; absolute edits,
 * undos and voids are never held.
 */
export function isHeld(now: ScoreboardFields, action: GameAction, madeIn?: string): boolean {
  if (madeIn === undefined || !scoresPerPeriod(now.sportID)) return false;
  // Naming who scored a tap is not a tap of the period: it follows the tap it names.
  if (['set', 'undo', 'void', 'resolve', 'scorer'].includes(action.kind)) return false;
  // Volleyball's sets won are the match's tally, not a tap of a set: Sets − corrects it now,
  // whichever set the screen showed, or a set given by mistake would stay on the line score.
  if (action.kind === 'count' && now.sportID === 6 && /^(home|away)ScoreGames$/.test(action.field))
    return false;
  if (samePeriod(madeIn, now.gamePeriod)) return false;
  return periodLabels(now.sportID, now.maxSets).some((p) => samePeriod(p, madeIn));
}

/** Who was ahead in a period when it ended: 1 home, −1 away, 0 level. */
function periodLeader(sportID: number, end: FoldStep, period: string): number {
  if (sportID === 8) {
    // A tennis set's games are kept in its set fields once its last game is played.
    const n = Number(/\d+/.exec(period)?.[0] ?? 0);
    const home = end.after[`homeSet${n}` as keyof ScoreboardFields] as number | undefined;
    const away = end.after[`awaySet${n}` as keyof ScoreboardFields] as number | undefined;
    return Math.sign((home ?? 0) - (away ?? 0));
  }
  // A volleyball set's points are reset by the tap that ends it: read them just before.
  return Math.sign(end.before.homeScore - end.before.awayScore);
}

/**
 * Where held events made in `period` can be applied to it: just before the event that ended
 * the period, provided that changes who was ahead when it ended, and where every later event
 * falls, in nothing. Null when the period never ended in the log or when it would.
 */
export function placeInPeriod(
  start: ScoreboardFields,
  events: readonly LoggedEvent[],
  held: readonly LoggedEvent[],
  period: string,
): { before: string } | null {
  const steps = foldSteps(start, events);
  let end = -1;
  for (let i = steps.length - 1; i >= 0 && end < 0; i--) {
    const s = steps[i]!;
    if (samePeriod(s.before.gamePeriod, period) && !samePeriod(s.after.gamePeriod, period)) end = i;
  }
  if (end < 0) return null;
  const ending = steps[end]!;
  const tried = foldSteps(start, events, { before: ending.id, events: held });
  const after = tried.slice(end + held.length);
  const newEnd = after[0];
  if (!newEnd || newEnd.id !== ending.id || !samePeriod(newEnd.before.gamePeriod, period)) {
    return null;
  }
  const sport = ending.before.sportID;
  if (periodLeader(sport, ending, period) !== periodLeader(sport, newEnd, period)) return null;
  const later = steps.slice(end);
  const moved = later.some(
    (s, i) => !samePeriod(s.after.gamePeriod, after[i]?.after.gamePeriod ?? ''),
  );
  return moved || later.length !== after.length ? null : { before: ending.id };
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
