import { z } from 'zod';
import { keySchema } from './keys.ts';
import { safeText } from './text.ts';
import { groupNameSchema, playerInputSchema } from './teamsheet.ts';

// SPEC §3 Player. imageURL is '' when there is no photo.
export const playerSchema = z.object({
  key: z.string(),
  jersey: z.string(),
  playerName: z.string(),
  playerNotes: z.string(),
  imageURL: z.string(),
});
export type Player = z.infer<typeof playerSchema>;

// SPEC §3 Team sheet groups: groupName, groupKey, key (key repeats groupKey, as the original did).
export const groupSchema = z.object({
  groupKey: z.string(),
  key: z.string(),
  groupName: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export const membershipSchema = z.object({ location: z.number().int(), playerKey: z.string() });
/** SPEC §3 groupMembership: group key → player key → { location, playerKey }. */
export const groupMembershipSchema = z.record(z.string(), z.record(z.string(), membershipSchema));
export type GroupMembership = z.infer<typeof groupMembershipSchema>;

const sheetBody = {
  teamName: z.string(),
  teamNotes: z.string(),
  roster: z.array(playerSchema),
  groups: z.array(groupSchema),
  groupMembership: groupMembershipSchema,
};

/** The owner's whole sheet. publishedAsKey is '' while unpublished (SPEC §3). */
export const teamSheetSchema = z.object({
  teamKey: z.string(),
  publishedAsKey: z.string(),
  active: z.boolean(),
  ...sheetBody,
});
export type TeamSheet = z.infer<typeof teamSheetSchema>;

/** The public copy made by publishing (SPEC §4); the owner's uid is not shown to the public. */
export const publicRosterSchema = z.object({ publishedAsKey: z.string(), ...sheetBody });
export type PublicRoster = z.infer<typeof publicRosterSchema>;

export const publicRosterResponseSchema = publicRosterSchema.extend({
  /** Whether the signed-in viewer follows it; null for an anonymous viewer. */
  followed: z.boolean().nullable(),
});

export const teamSummarySchema = z.object({
  teamKey: z.string(),
  teamName: z.string(),
  teamNotes: z.string(),
  publishedAsKey: z.string(),
});
export type TeamSummary = z.infer<typeof teamSummarySchema>;

// SPEC §3 favoriteRosters entries carry teamName.
export const followedRosterSchema = z.object({ publishedAsKey: z.string(), teamName: z.string() });
export type FollowedRoster = z.infer<typeof followedRosterSchema>;

export const teamsListSchema = z.object({
  mine: z.array(teamSummarySchema),
  following: z.array(followedRosterSchema),
});
export type TeamsList = z.infer<typeof teamsListSchema>;

export const publishResultSchema = z.object({ publishedAsKey: z.string(), url: z.string() });

// Request bodies and params.
export const teamKeyParams = z.object({ teamKey: keySchema });
/** SPEC §3: player key -1 means a new player. */
export const NEW_PLAYER_KEY = '-1';
export const playerKeyParams = z.object({
  teamKey: keySchema,
  playerKey: z.union([z.literal(NEW_PLAYER_KEY), keySchema]),
});
export const existingPlayerParams = z.object({ teamKey: keySchema, playerKey: keySchema });
export const groupKeyParams = z.object({ teamKey: keySchema, groupKey: keySchema });
export const memberParams = groupKeyParams.extend({ playerKey: keySchema });
export const publishedKeyParams = z.object({ publishedAsKey: keySchema });

/**
 * Deprecated: a client-made key naming one create, from clients older than the Idempotency-Key
 * header (which the web now sends). Still accepted: the same createKey again answers with what
 * the first request made, whatever the body held by then.
 */
const createKey = {
  createKey: keySchema.optional().meta({
    deprecated: true,
    description: 'Deprecated: send an Idempotency-Key header instead (still accepted)',
  }),
};
// Null: a bodiless POST, as clients before createKey send it.
export const teamCreateSchema = z.object(createKey).nullish();
export const groupCreateSchema = groupNameSchema.extend(createKey);
/** DESIGN §5: a photo may arrive as a data URL in JSON, as the original app sent it. */
const dataUrlSchema = z
  .string()
  .max(12 * 1024 * 1024)
  .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,/, 'must be a base64 data URL');
/** A player and, optionally, their new photo: saved together or not at all. */
export const playerSaveSchema = playerInputSchema.extend({
  ...createKey,
  dataUrl: dataUrlSchema.optional(),
});
export const bulkUploadSchema = z.object({ text: safeText().max(100_000), ...createKey });
export const MAX_BULK_ROWS = 500;
export const bulkResultSchema = z.object({ created: z.number().int() });
/** Location codes a client may set (SPEC §3); other stored values display as Unknown. */
export const locationInputSchema = z.object({ location: z.number().int().min(0).max(3) });
export const photoDataUrlSchema = z.object({ dataUrl: dataUrlSchema });
