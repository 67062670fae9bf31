import type { PlayCountRosterEntry } from './playcount.ts';

// How a play-count topic's state takes a change after its first frame (docs/decisions/0002,
// amended), apart from the events' schemas: the shared link's page folds its deltas with these
// and loads no zod.

/** Only what changes of a roster: changed fields per player (new players whole), removals,
 * and the order when it is not the old order with new players appended. */
export interface RosterChange {
  upsert?: Array<Partial<PlayCountRosterEntry> & { key: string }>;
  remove?: string[];
  order?: string[];
}

/** Applies a RosterChange to any roster keyed by player (the owner's or a shared link's). */
export function applyRosterChange<T extends { key: string }>(
  roster: readonly T[],
  change: RosterChange,
): T[] {
  const removed = new Set(change.remove ?? []);
  const byKey = new Map(roster.filter((p) => !removed.has(p.key)).map((p) => [p.key, p]));
  const added: string[] = [];
  for (const u of change.upsert ?? []) {
    const o = byKey.get(u.key);
    if (!o) added.push(u.key);
    byKey.set(u.key, { ...o, ...u } as unknown as T);
  }
  const order = change.order ?? [
    ...roster.filter((p) => !removed.has(p.key)).map((p) => p.key),
    ...added,
  ];
  return order.flatMap((k) => {
    const p = byKey.get(k);
    return p ? [p] : [];
  });
}

export type PlayCountDelta = {
  fields?: Record<string, unknown>;
  roster?: RosterChange;
  snaps?: { keep: number; add: unknown[] };
};

/** Applies a delta to the state of a play-count topic (the owner's count or a shared link). */
export function applyPlayCountDelta<T extends { roster: Array<{ key: string }>; snaps: unknown[] }>(
  state: T,
  delta: PlayCountDelta,
): T {
  return {
    ...state,
    ...delta.fields,
    roster: delta.roster ? applyRosterChange(state.roster, delta.roster) : state.roster,
    snaps: delta.snaps
      ? [...state.snaps.slice(0, delta.snaps.keep), ...delta.snaps.add]
      : state.snaps,
  };
}
