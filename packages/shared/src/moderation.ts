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

/**
 * What the operators' queue shows of anything reported: owner, hidden or not, its reports. A
 * schema that the others extend, not a plain object of fields spread into them: the web build
 * drops unused module-level schemas (calls it marks pure), but would keep an object literal's
 * calls, or a read of a schema's `.shape`, and zod with them, on every page.
 */
const reportedFields = z.object({
  ownerName: z.string().nullable(),
  hidden: z.boolean(),
  reports: z.number().int(),
  reasons: z.array(z.string()),
  firstReportedAt: z.string(),
});

/** A game with open reports, as the operators' queue shows it. */
export const reportedGameSchema = reportedFields.extend({
  gameKey: z.string(),
  gameName: z.string(),
  ownerUid: z.string(),
});
export type ReportedGame = z.infer<typeof reportedGameSchema>;

/** A comment with open reports, as the operators' queue shows it. */
export const reportedCommentSchema = reportedFields.extend({
  commentId: z.string(),
  text: z.string(),
  gameKey: z.string(),
  gameName: z.string(),
});

/** What an operator acts on: a game, a comment (by its id), a tag (by its key) or a person. */
export const moderationTargetSchema = z.enum(['game', 'comment', 'tag', 'user']);
export type ModerationTarget = z.infer<typeof moderationTargetSchema>;

export const moderationActionSchema = z.object({
  at: z.string(),
  adminUid: z.string(),
  adminName: z.string().nullable(),
  action: z.enum(['hide', 'unhide', 'dismiss', 'block', 'unblock']),
  target: moderationTargetSchema,
  /** The game's key, the comment's id or the tag's key. */
  targetKey: z.string(),
  /** The game the action was on, or the comment's game ('' for a tag). */
  gameKey: z.string(),
  /** The game's name when the action was taken ('' for actions logged before it was kept). */
  gameName: z.string(),
  /** The comment's words, the tag's name or the person's name when the action was taken. */
  detail: z.string(),
  ownerUid: z.string().nullable(),
});

export const moderationQueueSchema = z.object({
  reports: z.array(reportedGameSchema),
  /** Hidden games, newest first, so an operator can restore one. */
  hidden: z.array(z.object({ gameKey: z.string(), gameName: z.string(), hiddenAt: z.string() })),
  reportedComments: z.array(reportedCommentSchema),
  /** Hidden comments, newest first, with their game, so an operator can restore one. */
  hiddenComments: z.array(
    z.object({
      commentId: z.string(),
      text: z.string(),
      gameKey: z.string(),
      gameName: z.string(),
      hiddenAt: z.string(),
    }),
  ),
  hiddenTags: z.array(z.object({ tagKey: z.string(), name: z.string(), hiddenAt: z.string() })),
  /** People blocked from public games, newest first, so an operator can unblock one. */
  blocked: z.array(
    z.object({ uid: z.string(), name: z.string().nullable(), blockedAt: z.string() }),
  ),
  /** The latest actions, newest first: who did what and when. */
  actions: z.array(moderationActionSchema),
});
export type ModerationQueue = z.infer<typeof moderationQueueSchema>;

/**
 * What the owner of a game is told when an operator hides or restores it or one of its
 * comments: shown to them until they dismiss it. gameName is the name the game had then, and
 * comment the comment's words.
 */
export const moderationNoticeSchema = z.object({
  id: z.string(),
  /** hidden/restored: a game or comment; blocked/unblocked: the person's own account. */
  kind: z.enum(['hidden', 'restored', 'blocked', 'unblocked']),
  gameKey: z.string(),
  gameName: z.string(),
  comment: z.string().optional(),
  at: z.string(),
});
export type ModerationNotice = z.infer<typeof moderationNoticeSchema>;
export const moderationNoticesSchema = z.array(moderationNoticeSchema);

/** A notice's id in a path. */
export const noticeParamsSchema = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Not a notice') });

/** The plain words a notice says. */
export function noticeText(n: Pick<ModerationNotice, 'kind' | 'gameName' | 'comment'>): string {
  const game = n.gameName ? `your game “${n.gameName}”` : 'one of your games';
  if (n.kind === 'blocked') {
    return (
      'A moderator blocked your account from public games: your games are hidden from everyone ' +
      'but you, your co-scorers and the moderators, and you cannot create new ones.'
    );
  }
  if (n.kind === 'unblocked') {
    return 'A moderator unblocked your account: your games are public again.';
  }
  if (n.comment !== undefined) {
    const comment = `your comment “${shorten(n.comment)}” on ${game}`;
    return n.kind === 'hidden'
      ? `A moderator hid ${comment}. Only you, your co-scorers and the moderators can see it now.`
      : `A moderator restored ${comment}: everyone can see it again.`;
  }
  return n.kind === 'hidden'
    ? `A moderator hid ${game}. Only you, your co-scorers and the moderators can see it now; ` +
        'open it to see what you can do.'
    : `A moderator restored ${game}: everyone can see it again.`;
}

const QUOTED = 60;
/** A long comment quoted in a notice or the log: its start. */
export function shorten(text: string): string {
  return text.length > QUOTED ? `${text.slice(0, QUOTED - 1)}…` : text;
}

/** A comment's id in a path. */
export const commentIdSchema = z.string().regex(/^\d{1,18}$/, 'Not a comment');
