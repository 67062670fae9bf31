import type { ScoreboardFields, ScoreboardPatch } from '@sagan/shared/scoreboard';
import { applyIntent } from '@sagan/shared/scorekeeping';
import { isHeld, type GameAction, type ResolveAction } from '@sagan/shared/game-log';
import { newId } from '../../../lib/new-id.ts';
import {
  type AnsweredItem,
  type OutboxItem,
  type OutboxRequest,
  type OutboxStream,
} from '../../../lib/outbox.ts';

/** What the scorekeeper builds on: the game topic's scoreboard and the seq it is at. */
export interface GameBase {
  seq: number;
  top: ScoreboardFields;
}

/**
 * A queued action, with the period shown when it was tapped (DESIGN §10: "made in"). Decisions
 * on held taps are not queued: they are sent at once, their answer shown.
 */
export type QueuedAction = Exclude<GameAction, ResolveAction> & { madeIn?: string };

const DEVICE_KEY = 'sagan:device';

/**
 * This browser's id in the game's log: Undo takes back the last event made here, never another
 * phone's. Kept for the device, not the page, so a reload can still undo.
 */
export function deviceId(): string {
  try {
    const known = localStorage.getItem(DEVICE_KEY);
    if (known) return known;
    const made = newId();
    localStorage.setItem(DEVICE_KEY, made);
    return made;
  } catch {
    return (fallbackDevice ??= newId());
  }
}
let fallbackDevice: string | undefined;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const patchOf = (request: OutboxRequest): ScoreboardPatch => {
  const patch = { ...(request.body as ScoreboardPatch & { baseSeq?: number; device?: string }) };
  delete patch.baseSeq;
  delete patch.device;
  return patch;
};

const builtOn = (request: OutboxRequest): number | null => {
  const body = request.body;
  return isRecord(body) && typeof body.baseSeq === 'number' ? body.baseSeq : null;
};

/**
 * The outbox stream of one game. Taps are sent as intents to the game's log (relative, so
 * never refused as stale); Undo and voids too. Absolute edits ("set": the edit form, Final,
 * Starting Soon) stay PATCHes of the fields they change with the base's seq, refused with 409
 * when someone changed those fields since.
 */
export function gameStream(gameKey: string): OutboxStream<QueuedAction, GameBase> {
  const path = `/games/${encodeURIComponent(gameKey)}`;
  return {
    name: `game:${gameKey}`,
    needsBase: true,
    build(queued, base) {
      if (!base) return null;
      const { madeIn, ...action } = queued;
      if (action.kind === 'set') {
        const patch = applyIntent(base.top, action);
        if (Object.keys(patch).length === 0) return null;
        return {
          method: 'PATCH',
          path,
          body: { ...patch, baseSeq: base.seq, device: deviceId() },
        };
      }
      return {
        method: 'POST',
        path: `${path}/events`,
        body: {
          action,
          device: deviceId(),
          baseSeq: base.seq,
          period: madeIn ?? base.top.gamePeriod,
        },
      };
    },
    stateFrom409(body) {
      if (!isRecord(body) || typeof body.seq !== 'number' || !isRecord(body.state)) return null;
      return { seq: body.seq, top: body.state as unknown as ScoreboardFields };
    },
    seqOf: (state) => state.seq,
    settle(request, base, answer) {
      const seq = isRecord(answer) && typeof answer.seq === 'number' ? answer.seq : null;
      if (seq === null) return null;
      // Nothing else was written in between: the new state is the base with this change.
      if (base && base.seq === seq - 1) {
        if (request.method === 'PATCH') {
          return { base: { seq, top: { ...base.top, ...patchOf(request) } } };
        }
        const { action } = request.body as { action: QueuedAction };
        // A held tap is stored, not applied: the scoreboard is the base's.
        if (isRecord(answer) && answer.held === true) return { base: { seq, top: base.top } };
        if (action.kind !== 'undo' && action.kind !== 'void') {
          return { base: { seq, top: { ...base.top, ...applyIntent(base.top, action) } } };
        }
      }
      return { waitFor: seq };
    },
  };
}

/**
 * What the scorer sees: the live scoreboard with the actions the server has taken but the live
 * state does not show yet (`answered`, each applied while the live seq is below the one its
 * answer gave), then the queued ones, in order. Without the first, the board went back to the
 * state before a change for the moment between its answer and its frame, and a tap made then
 * was built on that state: a "To go −1" right after "1st & 10" was a −1 at the 0 shown, which
 * changes nothing and was not sent. An edit already sent carries absolute values, so it is
 * applied as sent. An intent already sent is applied only while the live state is not past the
 * seq it was built on (past it, the live state may hold it already). Undo and voids show once
 * the server has folded them; a tap made in a set that has ended is not shown at all (the
 * server holds it for the scorers).
 */
export function withPending(
  live: GameBase,
  items: readonly OutboxItem<QueuedAction>[],
  answered: readonly AnsweredItem<QueuedAction>[] = [],
): ScoreboardFields {
  // Taken, and still above what the live state shows: its answer's seq says so.
  const taken = answered.filter((item) => item.seq > live.seq);
  // Queued: an intent already sent is past once the live state is past the seq it was built on.
  const queued = items.filter((item) => {
    if (!item.request || item.request.method === 'PATCH') return true;
    const seen = builtOn(item.request);
    return seen === null || live.seq <= seen;
  });
  return [...taken, ...queued].reduce(applyPending, live.top);
}

/** One action the live state does not show yet, applied to what the scorer sees. */
function applyPending(f: ScoreboardFields, item: OutboxItem<QueuedAction>): ScoreboardFields {
  const action = item.intent;
  if (action.kind === 'undo' || action.kind === 'void') return f;
  if (item.request?.method === 'PATCH') return { ...f, ...patchOf(item.request) };
  // Made in a set that has ended since: the server holds it, so it is not shown as counted.
  if (isHeld(f, action, item.intent.madeIn)) return f;
  // applyIntent reads only the fields of its kind: the madeIn riding along is ignored.
  return { ...f, ...applyIntent(f, action) };
}
