import { z } from 'zod';
import { keySchema } from './keys.ts';
import { scoreboardFieldsSchema, gameCommentInputSchema } from './scoreboard.ts';

// The read side of scoreboards: what the realtime topics and viewer endpoints carry.

/** A game as viewers see it: every field, no owner uid (SPEC §3 Scoreboard). */
export const publicScoreboardSchema = scoreboardFieldsSchema.extend({
  gameKey: z.string(),
  timeStamp: z.number(),
});
export type PublicScoreboard = z.infer<typeof publicScoreboardSchema>;

/** SPEC §2 summary card: game name, period, sport, and both scores. */
export const gameSummarySchema = publicScoreboardSchema
  .pick({
    gameKey: true,
    gameName: true,
    gamePeriod: true,
    sportID: true,
    homeTeamName: true,
    awayTeamName: true,
    homeScore: true,
    awayScore: true,
    timeStamp: true,
    startsAt: true,
  })
  .extend({
    /** In its owner's own list only: an operator hid it from the public. */
    hidden: z.literal(true).optional(),
    /** Tennis games only: their score is in sets and games (scoreboard-boards tennisSummary). */
    tennis: z
      .object({
        sets: z.array(z.object({ home: z.number(), away: z.number() })),
        homeGames: z.number(),
        awayGames: z.number(),
      })
      .optional(),
  });
export type GameSummary = z.infer<typeof gameSummarySchema>;

export const gameCommentSchema = gameCommentInputSchema.extend({
  id: z.string(),
  timeStamp: z.number(),
  /** Hidden by an operator: only in the scorers' own view of the game (DESIGN §10). */
  hidden: z.literal(true).optional(),
});
export type GameComment = z.infer<typeof gameCommentSchema>;

/** SPEC §3 Tag: name, gameCount (derived), key, serverTimeStamp. */
export const tagSummarySchema = z.object({
  key: z.string(),
  name: z.string(),
  gameCount: z.number().int().nonnegative(),
  serverTimeStamp: z.number(),
});
export type TagSummary = z.infer<typeof tagSummarySchema>;

/**
 * 409 to a patch sent against an older state (DESIGN §9): the current scoreboard and the game
 * topic's seq it is at, for the writer to rebuild its change on.
 */
export const staleWriteSchema = z.object({
  error: z.string(),
  message: z.string(),
  seq: z.number().int().nonnegative(),
  state: publicScoreboardSchema,
});

/** Topic game:{gameKey}: the top, comments (newest first) and tags; null when missing. */
export const gameTopicSchema = z
  .object({
    top: publicScoreboardSchema,
    comments: z.array(gameCommentSchema),
    tags: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        /** Hidden by an operator: only in the scorers' own view of the game. */
        hidden: z.literal(true).optional(),
      }),
    ),
  })
  .nullable();
export type GameTopic = z.infer<typeof gameTopicSchema>;

export const gameListSchema = z.array(gameSummarySchema);

/** Topic tags: SPEC §2 dashboard New Tags and Popular Tags (DESIGN §8 order). */
export const tagsTopicSchema = z.object({
  newTags: z.array(tagSummarySchema),
  popularTags: z.array(tagSummarySchema),
});

/** Topic tag:{tagID}: the tag and its games; null when missing. */
export const tagTopicSchema = z
  .object({
    tag: tagSummarySchema,
    games: gameListSchema,
    /** Its scheduled games not begun yet, soonest first (game-schedule.ts); not in games. */
    upcoming: gameListSchema.optional(),
  })
  .nullable();

/** Topic user:{uid}:favorites: bookmarks (SPEC §7 stores gameName) with the live summary. */
export const favoritesTopicSchema = z.array(
  z.object({ gameKey: z.string(), gameName: z.string(), game: gameSummarySchema }),
);

/** Topic user:{uid}:followedTags: the followed tags and the games under them. */
export const followedTagsTopicSchema = z.object({
  tags: z.array(tagSummarySchema),
  games: gameListSchema,
});

export const gameKeyParamsSchema = z.object({ gameKey: keySchema });
export const tagParamsSchema = z.object({ tagID: keySchema });

/**
 * A message as its scorekeeper reads it: who sent it by display name (null when their account
 * has none). The sender's account id (a Google id) is theirs, not the scorekeeper's to see.
 */
export const scorekeeperMessageViewSchema = z.object({
  id: z.string(),
  fromName: z.string().nullable(),
  message: z.string(),
  createdAt: z.number(),
  /** Marked read by the scorekeeper. */
  read: z.boolean(),
});
export const messageParamsSchema = z.object({
  gameKey: keySchema,
  messageId: z.string().regex(/^\d{1,18}$/, 'a message id is a number'),
});
export const messageReadSchema = z.object({ read: z.boolean() });
export const scorekeeperMessagesSchema = z.object({
  messages: z.array(scorekeeperMessageViewSchema),
});

export const watchersInputSchema = z.object({ userKey: z.string().max(100).optional() });
export const watchersSchema = z.object({ gameKey: z.string(), watchers: z.number().int() });

export const RECENT_GAMES_LIMIT = 10; // SPEC §9
export const TAG_LIST_LIMIT = 12;
