import { z } from 'zod';

// DESIGN §6 Player Counter contract.
export const playCountRosterEntrySchema = z.object({
  key: z.string().min(1).max(64),
  jersey: z.string().max(10),
  playerName: z.string().max(100),
  playCount: z.number().int().nonnegative().max(100_000),
  location: z.union([z.literal(1), z.literal(2)]),
  imageURL: z.string().max(2000).optional(),
});

export const snapSchema = z
  .object({
    snapCount: z.number().int().nonnegative(),
    groupName: z.string().max(60),
    quarter: z.number().int().min(1).max(4),
  })
  .catchall(z.literal(true));

export const playCountGameInputSchema = z.object({
  gameName: z.string().trim().min(1).max(200),
  gameDate: z.string().trim().min(1).max(40),
  archived: z.boolean().default(false),
  roster: z.array(playCountRosterEntrySchema).max(200),
  snaps: z.array(snapSchema).max(1000),
  minPlays: z.number().int().nonnegative().max(1000).nullable().optional(),
});
export type PlayCountGameInput = z.infer<typeof playCountGameInputSchema>;

export const playCountPatchSchema = z
  .object({
    archived: z.boolean(),
    minPlays: z.number().int().nonnegative().max(1000).nullable(),
  })
  .partial()
  .strict();

export function playLocationLabel(location: number): string {
  return location === 1 ? 'On Field' : location === 2 ? 'Sideline' : 'Unknown';
}
