import { z } from 'zod';
import { isInSnap, type PlayCountRosterEntry, type Snap } from './playcount.ts';
import { applyRosterChange, type RosterChange } from './playcount-delta.ts';

// A play count is a log of events (DESIGN §10): the server keeps the fold's counts on the
// count's row and its snaps as the live snap events; the topics send what an event changed.
// Server and web fold with these same functions.

export type PlayCountEventBody =
  /** The stored state of a count that existed before its log (migrated). */
  | { kind: 'baseline'; gameName: string; gameDate: string; roster: PlayCountRosterEntry[] }
  /** One snap; `counted` false when a phone's absolute write brought it (its counts are set). */
  | { kind: 'snap'; snap: Snap; counted: boolean }
  /** The sideline's undo: voids `target`, and who was on the field goes back to `previous`. */
  | { kind: 'undo'; target: string; snap: Snap; previous: string[] | null }
  /** A phone app's PUT, as its difference from the state it replaced. */
  | { kind: 'set'; gameName?: string; gameDate?: string; roster?: RosterChange }
  | { kind: 'finish'; finished: boolean };

/** The players a snap put on the field. */
export const playersOf = (snap: Snap): string[] =>
  Object.keys(snap).filter((k) => isInSnap(snap, k));

/** A snap's effect: a play for each of its players, who are now the ones on the field. */
export function snapRoster(
  roster: readonly PlayCountRosterEntry[],
  players: Iterable<string>,
): PlayCountRosterEntry[] {
  const inSnap = new Set(players);
  return roster.map((p) =>
    inSnap.has(p.key) ? { ...p, playCount: p.playCount + 1, location: 1 } : { ...p, location: 2 },
  );
}

/**
 * An undone snap's players lose its play, and the field is again who was in the snap before it
 * (nobody when there is none), so nobody stays "On Field" because of a snap that is gone.
 */
export function undoRoster(
  roster: readonly PlayCountRosterEntry[],
  snap: Snap,
  previous: readonly string[] | null,
): PlayCountRosterEntry[] {
  const onField = new Set(previous ?? []);
  return roster.map((p) => ({
    ...p,
    playCount: isInSnap(snap, p.key) ? Math.max(0, p.playCount - 1) : p.playCount,
    location: onField.has(p.key) ? 1 : 2,
  }));
}

const sameEntry = (a: PlayCountRosterEntry, b: PlayCountRosterEntry) =>
  a.jersey === b.jersey &&
  a.playerName === b.playerName &&
  a.playCount === b.playCount &&
  a.location === b.location &&
  a.imageURL === b.imageURL;

/** What turns roster `before` into `after`; null when they are the same. */
export function rosterChange(
  before: readonly PlayCountRosterEntry[],
  after: readonly PlayCountRosterEntry[],
): RosterChange | null {
  const old = new Map(before.map((p) => [p.key, p]));
  const now = new Set(after.map((p) => p.key));
  const upsert: NonNullable<RosterChange['upsert']> = [];
  for (const p of after) {
    const o = old.get(p.key);
    if (!o) {
      upsert.push(p);
      continue;
    }
    if (sameEntry(o, p)) continue;
    const changed: Partial<PlayCountRosterEntry> & { key: string } = { key: p.key };
    for (const f of ['jersey', 'playerName', 'playCount', 'location', 'imageURL'] as const) {
      if (o[f] !== p[f]) Object.assign(changed, { [f]: p[f] ?? '' });
    }
    upsert.push(changed);
  }
  const remove = before.filter((p) => !now.has(p.key)).map((p) => p.key);
  const change: RosterChange = {};
  if (upsert.length) change.upsert = upsert;
  if (remove.length) change.remove = remove;
  const natural = [
    ...before.filter((p) => now.has(p.key)).map((p) => p.key),
    ...after.filter((p) => !old.has(p.key)).map((p) => p.key),
  ];
  if (natural.some((k, i) => after[i]!.key !== k)) change.order = after.map((p) => p.key);
  return Object.keys(change).length ? change : null;
}

/** A count's folded state. */
export interface PlayCountFold {
  gameName: string;
  gameDate: string;
  roster: PlayCountRosterEntry[];
  snaps: Snap[];
  finished: boolean;
}

export interface PlayCountEvent {
  eventId: string;
  body: PlayCountEventBody;
  voidedBy: string | null;
}

/**
 * The state of a count from its whole log, in order. A snap's play is counted where the snap
 * stands and taken back where its undo stands; the snaps listed are the ones nothing voided.
 * The server keeps the same state incrementally (one event at a time); tests compare the two.
 */
export function foldPlayCount(events: readonly PlayCountEvent[]): PlayCountFold {
  let state: PlayCountFold = { gameName: '', gameDate: '', roster: [], snaps: [], finished: false };
  for (const { body, voidedBy } of events) {
    switch (body.kind) {
      case 'baseline':
        state = { ...state, gameName: body.gameName, gameDate: body.gameDate, roster: body.roster };
        break;
      case 'snap':
        if (body.counted)
          state = { ...state, roster: snapRoster(state.roster, playersOf(body.snap)) };
        if (voidedBy === null) state = { ...state, snaps: [...state.snaps, body.snap] };
        break;
      case 'undo':
        state = { ...state, roster: undoRoster(state.roster, body.snap, body.previous) };
        break;
      case 'set':
        state = {
          ...state,
          ...(body.gameName !== undefined ? { gameName: body.gameName } : {}),
          ...(body.gameDate !== undefined ? { gameDate: body.gameDate } : {}),
          roster: body.roster ? applyRosterChange(state.roster, body.roster) : state.roster,
        };
        break;
      case 'finish':
        state = { ...state, finished: body.finished };
        break;
    }
  }
  return state;
}

/**
 * What a play-count topic sends after its first frame (docs/decisions/0002, amended): the
 * top-level fields that changed, the roster's change, and the snaps as "keep the first `keep`,
 * then append `add`" (a snap: keep all, add one; an undo: keep all but the last).
 */
export const playCountDeltaSchema = z.object({
  fields: z.record(z.string(), z.unknown()).optional(),
  roster: z
    .object({
      upsert: z.array(z.object({ key: z.string() }).catchall(z.unknown())).optional(),
      remove: z.array(z.string()).optional(),
      order: z.array(z.string()).optional(),
    })
    .optional(),
  snaps: z.object({ keep: z.number().int().nonnegative(), add: z.array(z.unknown()) }).optional(),
});
