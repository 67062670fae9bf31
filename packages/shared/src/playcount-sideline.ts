import { z } from 'zod';
import { keySchema } from './keys.ts';
import {
  MAX_PLAY_COUNT_ROSTER,
  MAX_SNAPS,
  minPlaysSchema,
  type PlayCountRosterEntry,
  type Snap,
} from './playcount.ts';
import { playersOf, snapRoster, undoRoster } from './playcount-events.ts';
import { safeText } from './text.ts';

// The sideline play counter: a coach counts plays in the browser from a team sheet, one snap
// per request, through the same play-count data the Player Counter phone app writes (DESIGN §6).

export const playersPerSnapSchema = z.number().int().min(1).max(50);

/** `POST /api/playcounts`: a new count of one of the caller's team sheets. */
export const newPlayCountSchema = z
  .object({
    teamKey: keySchema,
    gameName: safeText().trim().min(1).max(200),
    gameDate: safeText().trim().min(1).max(40),
    minPlays: minPlaysSchema.nullable().optional(),
    playersPerSnap: playersPerSnapSchema.nullable().optional(),
  })
  .strict();
export type NewPlayCount = z.infer<typeof newPlayCountSchema>;

export const newPlayCountResultSchema = z.object({ gameKey: z.string() });

/** `POST /api/playcounts/{gameKey}/snaps`: one snap; the server numbers it. */
export const snapInputSchema = z
  .object({
    quarter: z.number().int().min(1).max(4),
    groupName: safeText().trim().max(60).default(''),
    players: z.array(keySchema).max(MAX_PLAY_COUNT_ROSTER),
  })
  .strict();
export type SnapInput = z.input<typeof snapInputSchema>;

/** What a snap or an undo answers: the snap it added or removed, and how many there are now. */
export const snapResultSchema = z.object({
  snapCount: z.number().int().nullable(),
  snaps: z.number().int(),
});

export type SnapProblem = 'full' | 'unknown-player';

/**
 * A snap for everyone in `input.players` (SPEC §3 shape: each player's key set to true),
 * numbered after the last one; each of them gets a play, and the roster's location follows who
 * was in it (1 On Field, 2 Sideline), as the phone app keeps it.
 */
export function appendSnap(
  roster: readonly PlayCountRosterEntry[],
  snaps: readonly Snap[],
  input: { quarter: number; groupName: string; players: readonly string[] },
): { roster: PlayCountRosterEntry[]; snaps: Snap[]; snap: Snap } | SnapProblem {
  if (snaps.length >= MAX_SNAPS) return 'full';
  const inSnap = new Set(input.players);
  const known = new Set(roster.map((p) => p.key));
  for (const key of inSnap) if (!known.has(key)) return 'unknown-player';
  const snap = makeSnap(snaps.reduce((max, s) => Math.max(max, s.snapCount), 0) + 1, {
    ...input,
    players: inSnap,
  });
  return { roster: snapRoster(roster, inSnap), snaps: [...snaps, snap], snap };
}

/** The snap numbered `snapCount` of these players (SPEC §3 shape: each player's key true). */
export function makeSnap(
  snapCount: number,
  input: { quarter: number; groupName: string; players: Iterable<string> },
): Snap {
  // The player keys sit beside the fixed fields (DESIGN §6), which zod's catchall type
  // cannot express for a literal.
  return {
    ...Object.fromEntries([...input.players].map((key) => [key, true])),
    snapCount,
    groupName: input.groupName,
    quarter: input.quarter,
  } as Snap;
}

/**
 * Removes the last snap and the play it gave each of its players, and puts the snap before it
 * back on the field; null when there is none.
 */
export function undoLastSnap(
  roster: readonly PlayCountRosterEntry[],
  snaps: readonly Snap[],
): { roster: PlayCountRosterEntry[]; snaps: Snap[]; snap: Snap } | null {
  const snap = snaps.at(-1);
  if (!snap) return null;
  const previous = snaps.at(-2);
  return {
    roster: undoRoster(roster, snap, previous ? playersOf(previous) : null),
    snaps: snaps.slice(0, -1),
    snap,
  };
}

/**
 * The read-only view a shared link shows (DESIGN §9): the count with the team sheet's privacy
 * option applied (initials, no photos) by the server, and photos named through the link.
 */
export const sharedPlayCountSchema = z.object({
  gameName: z.string(),
  gameDate: z.string(),
  teamName: z.string().nullable(),
  minPlays: z.number().int().nullable(),
  playersPerSnap: z.number().int().nullable(),
  roster: z.array(
    z.object({
      key: z.string(),
      jersey: z.string(),
      playerName: z.string(),
      playCount: z.number().int(),
      location: z.number().int(),
      imageURL: z.string(),
    }),
  ),
  snaps: z.array(z.object({ quarter: z.number().int(), groupName: z.string() })),
  /** The coach finished the count: the link shows final numbers, not a live count. */
  finished: z.boolean(),
});
export type SharedPlayCount = z.infer<typeof sharedPlayCountSchema>;

export const shareResultSchema = z.object({ shareKey: z.string() });

/**
 * The players a group puts on the field (SPEC §3 location 1 = Playing) who are in the count,
 * in the count's roster order.
 */
export function lineupOf(
  membership: Readonly<Record<string, { location: number }>> | undefined,
  rosterKeys: readonly string[],
): string[] {
  return rosterKeys.filter((key) => membership?.[key]?.location === 1);
}

/** The sideline warning when the number on the field differs from the count's setting. */
export function fieldCountWarning(onField: number, playersPerSnap: number | null): string | null {
  if (playersPerSnap === null || onField === playersPerSnap) return null;
  const diff = Math.abs(onField - playersPerSnap);
  return onField < playersPerSnap
    ? `${onField} on the field: ${diff} fewer than the ${playersPerSnap} per snap.`
    : `${onField} on the field: ${diff} more than the ${playersPerSnap} per snap.`;
}
