import type { ScoreboardFields, ScoreboardPatch } from '@sagan/shared/scoreboard';
import { applyIntent, type Intent } from '@sagan/shared/scorekeeping';
import type { OutboxItem, OutboxRequest, OutboxStream } from '../../../lib/outbox.ts';

/** What the scorekeeper builds on: the game topic's scoreboard and the seq it is at. */
export interface GameBase {
  seq: number;
  top: ScoreboardFields;
}

const patchOf = (request: OutboxRequest): ScoreboardPatch => {
  const patch = { ...(request.body as ScoreboardPatch & { baseSeq?: number }) };
  delete patch.baseSeq;
  return patch;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The outbox stream of one game: each intent becomes a PATCH of the fields it changes, computed
 * against the newest scoreboard the page knows, with that scoreboard's seq as baseSeq.
 */
export function gameStream(gameKey: string): OutboxStream<Intent, GameBase> {
  return {
    name: `game:${gameKey}`,
    needsBase: true,
    build(intent, base) {
      if (!base) return null;
      const patch = applyIntent(base.top, intent);
      if (Object.keys(patch).length === 0) return null;
      return {
        method: 'PATCH',
        path: `/games/${encodeURIComponent(gameKey)}`,
        body: { ...patch, baseSeq: base.seq },
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
      // Nothing else was written in between: the new state is the base with this patch.
      if (base && base.seq === seq - 1) {
        return { base: { seq, top: { ...base.top, ...patchOf(request) } } };
      }
      return { waitFor: seq };
    },
  };
}

/**
 * What the owner sees: the live scoreboard with the queued intents applied in order. A request
 * already built carries absolute values, so it is applied as sent (applying it twice, once in
 * the live state and once here, shows the same).
 */
export function withPending(
  top: ScoreboardFields,
  items: readonly OutboxItem<Intent>[],
): ScoreboardFields {
  return items.reduce<ScoreboardFields>(
    (f, item) => ({
      ...f,
      ...(item.request ? patchOf(item.request) : applyIntent(f, item.intent)),
    }),
    top,
  );
}
