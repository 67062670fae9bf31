import { z } from 'zod';

/** A viewer's report of a game: why, in their words (optional, short). */
export const reportGameSchema = z.object({
  reason: z.string().trim().max(500, 'Keep the reason under 500 characters').default(''),
});
export type ReportGame = z.infer<typeof reportGameSchema>;

export const reportGameResultSchema = z.object({
  ok: z.literal(true),
  /** This person had reported the game before: a report counts once per person. */
  alreadyReported: z.boolean(),
});

/** A game with open reports, as the operators' queue shows it. */
export const reportedGameSchema = z.object({
  gameKey: z.string(),
  gameName: z.string(),
  ownerUid: z.string(),
  ownerName: z.string().nullable(),
  hidden: z.boolean(),
  reports: z.number().int(),
  reasons: z.array(z.string()),
  firstReportedAt: z.string(),
});
export type ReportedGame = z.infer<typeof reportedGameSchema>;

export const moderationActionSchema = z.object({
  at: z.string(),
  adminUid: z.string(),
  adminName: z.string().nullable(),
  action: z.enum(['hide', 'unhide', 'dismiss']),
  gameKey: z.string(),
  /** The game's name when the action was taken ('' for actions logged before it was kept). */
  gameName: z.string(),
  ownerUid: z.string(),
});

export const moderationQueueSchema = z.object({
  reports: z.array(reportedGameSchema),
  /** Hidden games, newest first, so an operator can restore one. */
  hidden: z.array(z.object({ gameKey: z.string(), gameName: z.string(), hiddenAt: z.string() })),
  /** The latest actions, newest first: who did what and when. */
  actions: z.array(moderationActionSchema),
});
export type ModerationQueue = z.infer<typeof moderationQueueSchema>;

/**
 * What the owner of a game is told when an operator hides or restores it: shown to them until
 * they dismiss it. gameName is the name the game had then.
 */
export const moderationNoticeSchema = z.object({
  id: z.string(),
  kind: z.enum(['hidden', 'restored']),
  gameKey: z.string(),
  gameName: z.string(),
  at: z.string(),
});
export type ModerationNotice = z.infer<typeof moderationNoticeSchema>;
export const moderationNoticesSchema = z.array(moderationNoticeSchema);

/** A notice's id in a path. */
export const noticeParamsSchema = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Not a notice') });

/** The plain words a notice says. */
export function noticeText(n: Pick<ModerationNotice, 'kind' | 'gameName'>): string {
  const game = n.gameName ? `your game “${n.gameName}”` : 'one of your games';
  return n.kind === 'hidden'
    ? `A moderator hid ${game}. Only you, your co-scorers and the moderators can see it now; ` +
        'open it to see what you can do.'
    : `A moderator restored ${game}: everyone can see it again.`;
}
