import { z } from 'zod';
import { keySchema } from './keys.ts';
import { isStorableText, safeText, UNSTORABLE_TEXT_MESSAGE } from './text.ts';

// DESIGN §6 Player Counter contract.
export const playCountRosterEntrySchema = z.object({
  key: safeText().min(1).max(64),
  jersey: safeText().max(10),
  playerName: safeText().max(100),
  playCount: z.number().int().nonnegative().max(100_000),
  location: z.union([z.literal(1), z.literal(2)]),
  imageURL: safeText().max(2000).optional(),
});
export type PlayCountRosterEntry = z.infer<typeof playCountRosterEntrySchema>;

export const snapSchema = z
  .object({
    snapCount: z.number().int().nonnegative(),
    groupName: safeText().max(60),
    quarter: z.number().int().min(1).max(4),
  })
  .catchall(z.literal(true))
  // The player keys are the object's own keys, stored in jsonb.
  .refine((snap) => Object.keys(snap).every(isStorableText), UNSTORABLE_TEXT_MESSAGE);
export type Snap = z.infer<typeof snapSchema>;

export const MAX_PLAY_COUNT_ROSTER = 500;
export const MAX_SNAPS = 1000;

export const minPlaysSchema = z.number().int().nonnegative().max(1000);

export const playCountGameInputSchema = z.object({
  gameName: safeText().trim().min(1).max(200),
  gameDate: safeText().trim().min(1).max(40),
  archived: z.boolean().default(false),
  // A count started from a team sheet copies up to the sheet's 500 players, and the phone app
  // may read such a game back and re-send it whole.
  roster: z.array(playCountRosterEntrySchema).max(MAX_PLAY_COUNT_ROSTER),
  snaps: z.array(snapSchema).max(MAX_SNAPS),
  minPlays: minPlaysSchema.nullable().optional(),
});
export type PlayCountGameInput = z.infer<typeof playCountGameInputSchema>;

export const playCountPatchSchema = z
  .object({
    archived: z.boolean(),
    minPlays: minPlaysSchema.nullable(),
    /** Finish the count (true) or take it up again (false); archiving finishes it too. */
    finished: z.boolean(),
  })
  .partial()
  .strict();
export type PlayCountPatch = z.infer<typeof playCountPatchSchema>;

export const playCountGameKeyParamsSchema = z.object({ gameKey: keySchema });

/** A stored game as the server returns it (and as the `playcount:{gameKey}` topic carries it). */
export const playCountGameSchema = z.object({
  gameKey: z.string(),
  gameName: z.string(),
  gameDate: z.string(),
  archived: z.boolean(),
  /** DESIGN: the coach's minimum plays per player; null = no minimum set. */
  minPlays: z.number().int().nonnegative().nullable(),
  roster: z.array(playCountRosterEntrySchema),
  snaps: z.array(snapSchema),
  updatedAt: z.string(),
  /** The team sheet a count started in the browser came from; null for the phone app's. */
  teamKey: z.string().nullable(),
  /** Players on the field per snap (e.g. 11), a setting of a count started in the browser. */
  playersPerSnap: z.number().int().positive().nullable(),
  /** The read-only link's key while the owner shares the count; null when not shared. */
  shareKey: z.string().nullable(),
  /** Finished on the counter (or archived): no more snaps, the shared link says final. */
  finished: z.boolean(),
});
export type PlayCountGame = z.infer<typeof playCountGameSchema>;

/** One entry of `GET /api/playcounts` and of the `user:{uid}:playcounts` topic. */
export const playCountListItemSchema = z.object({
  gameKey: z.string(),
  gameName: z.string(),
  gameDate: z.string(),
  archived: z.boolean(),
  updatedAt: z.string(),
});
export type PlayCountListItem = z.infer<typeof playCountListItemSchema>;

export const playCountListSchema = z.object({ games: z.array(playCountListItemSchema) });
export type PlayCountList = z.infer<typeof playCountListSchema>;

/** The snap's fixed fields; every other key names a player who was in the snap. */
const SNAP_FIELDS: ReadonlySet<string> = new Set(['snapCount', 'groupName', 'quarter']);

/** DESIGN §6: a player's key present (as true) in a snap means they were in it. */
export function isInSnap(snap: Snap, playerKey: string): boolean {
  return !SNAP_FIELDS.has(playerKey) && snap[playerKey] === true;
}

// SPEC §3 roster location: 1 On Field, 2 Sideline.
export function playLocationLabel(location: number): string {
  return location === 1 ? 'On Field' : location === 2 ? 'Sideline' : 'Unknown';
}

// SPEC §9: archived games are hidden unless the Show Archived toggle is on.
export function visiblePlayCounts<T extends { archived: boolean }>(
  games: readonly T[],
  showArchived: boolean,
): T[] {
  return showArchived ? [...games] : games.filter((g) => !g.archived);
}
