import { z } from 'zod';
import { keySchema } from './keys.ts';

// Co-scorers (DESIGN §10): the owner invites others to score a game or count a play count
// through a link; redeemed once by a signed-in user, it binds to that account until revoked.

/** How long an unused invitation link stays valid. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What an invitation is for. */
export const scoredKindSchema = z.enum(['game', 'playcount']);
export type ScoredKind = z.infer<typeof scoredKindSchema>;

/** The link's secret: 32 random bytes, base64url. */
export const inviteTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'is not an invitation link this server made');

/** A new invitation, as its owner gets it: the token is shown this once (only a hash is kept). */
export const inviteSchema = z.object({
  id: z.string(),
  token: inviteTokenSchema,
  expiresAt: z.number(),
  /** The link to share: the web app's /invite page, the token in its fragment. */
  link: z.string(),
  /**
   * The link's QR code, a PNG as a data: URL. Drawn in this answer, since a separate request
   * for it would have to carry the token where servers and proxies log it.
   */
  qr: z.string(),
});
export type Invite = z.infer<typeof inviteSchema>;

/** The owner's view of who scores a game or count, and the invitations nobody used yet. */
export const coscorerListSchema = z.object({
  coscorers: z.array(z.object({ id: z.string(), name: z.string().nullable(), since: z.number() })),
  invites: z.array(z.object({ id: z.string(), createdAt: z.number(), expiresAt: z.number() })),
});
export type CoscorerList = z.infer<typeof coscorerListSchema>;

export const coscorerParamsSchema = z.object({ gameKey: keySchema, coscorerId: keySchema });

export const redeemInputSchema = z.object({ token: inviteTokenSchema }).strict();

/** What a redeemed invitation opened: the scorer's screen of this game or count. */
export const redeemAnswerSchema = z.object({
  kind: scoredKindSchema,
  gameKey: z.string(),
  gameName: z.string(),
});
export type RedeemAnswer = z.infer<typeof redeemAnswerSchema>;

/** One game or count a user scores for someone else. */
const scoredSchema = z.object({
  gameKey: z.string(),
  gameName: z.string(),
  ownerName: z.string().nullable(),
});
export type Scored = z.infer<typeof scoredSchema>;

/** Topic user:{uid}:scoring: what the user co-scores; a revoked one leaves the list at once. */
export const scoringListSchema = z.object({
  games: z.array(scoredSchema),
  playCounts: z.array(scoredSchema),
});
export type ScoringList = z.infer<typeof scoringListSchema>;
