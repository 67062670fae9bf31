import { z } from 'zod';
import { startProblem } from './game-schedule.ts';
import { isStorableText, safeText, UNSTORABLE_TEXT_MESSAGE } from './text.ts';
import { SCOREKEEPER_MESSAGE_MAX, TENNIS_DECIDERS, TENNIS_POINTS } from './scoreboard-basics.ts';

export {
  periodStyle,
  SCOREKEEPER_MESSAGE_MAX,
  TENNIS_DECIDERS,
  TENNIS_POINTS,
  type TennisDecider,
} from './scoreboard-basics.ts';

// DESIGN §6 scoreboard field types.
const count = z.number().int().nonnegative().max(1_000_000);
const text = safeText().max(200);
const flag = z.boolean();

/**
 * A tennis game's points: 0, 15, 30, 40, AD; in a tiebreak the points counted 1, 2, 3... (the
 * phone apps show the field as it is, so a tiebreak reads right on them too).
 */
const tennisPoints = z.union([z.enum(TENNIS_POINTS), z.string().regex(/^\d{1,3}$/)], {
  error: 'Points are 0, 15, 30, 40, AD, or a tiebreak count',
});

/** Points that win a volleyball set: at least 5, at most 99. */
const setPoints = z
  .number({ error: 'Set points are a whole number' })
  .int('Set points are a whole number')
  .min(5, 'A set is played to at least 5 points')
  .max(99, 'A set is played to at most 99 points');

/** The last moment a JavaScript Date can hold. */
const MAX_DATE_MS = 8_640_000_000_000_000;

export const scoreboardFieldsSchema = z.object({
  gameName: text,
  gamePeriod: text,
  sportID: count,
  homeTeamName: text,
  awayTeamName: text,
  homeScore: count,
  awayScore: count,
  homeScoreGoals: count,
  awayScoreGoals: count,
  homeScorePoints: count,
  awayScorePoints: count,
  homePossession: flag,
  homeManUp: flag,
  awayManUp: flag,
  homeShots: count,
  awayShots: count,
  homeSaves: count,
  awaySaves: count,
  homeFouls: count,
  awayFouls: count,
  ballOn: count,
  toGo: count,
  down: count,
  base1: flag,
  base2: flag,
  base3: flag,
  balls: count,
  strikes: count,
  outs: count,
  maxSets: z.number().int().min(1).max(5),
  homeSet1: count,
  homeSet2: count,
  homeSet3: count,
  homeSet4: count,
  homeSet5: count,
  awaySet1: count,
  awaySet2: count,
  awaySet3: count,
  awaySet4: count,
  awaySet5: count,
  homeScoreGames: count,
  awayScoreGames: count,
  homeScorePointsTennis: tennisPoints,
  awayScorePointsTennis: tennisPoints,
  // The game's rules, chosen when it is made. Optional, absent meaning the usual rule, so that
  // the game: frame of a game with the usual rules carries nothing more and the phone apps,
  // which know none of them, keep working.
  /** Tennis: no-ad scoring, the point at deuce decides the game (default: advantage). */
  tennisNoAd: flag.optional(),
  /** Tennis: how the deciding set is played (default: a tiebreak at 6–6). */
  tennisDecider: z.enum(TENNIS_DECIDERS).optional(),
  /** Volleyball: the points that win a set (default 25, by 2). */
  setPoints: setPoints.optional(),
  /** Volleyball: the points that win the deciding set, the 5th or the 3rd (default 15, by 2). */
  decidingSetPoints: setPoints.optional(),
  /** Volleyball: best of 3 sets, or of 5 (the default). */
  volleyballBestOf: z
    .union([z.literal(3), z.literal(5)], {
      error: 'A volleyball match is best of 3 or best of 5 sets',
    })
    .optional(),
  /**
   * A game created ahead: when it starts, in ms since 1970 (game-schedule.ts). Optional, so the
   * phone apps that never send it keep working.
   */
  startsAt: z
    .number({ error: 'The start must be a date and time' })
    .int('The start must be a date and time')
    .min(0, 'The start must be a date and time')
    .max(MAX_DATE_MS, 'The start must be a date and time')
    .optional(),
});
export type ScoreboardFields = z.infer<typeof scoreboardFieldsSchema>;

/** A PATCH carries any subset of the fields; unknown fields are refused (a typo is a bug). */
export const scoreboardPatchSchema = scoreboardFieldsSchema.partial().strict();

/** POST /games: the initial fields; a start, when given, is still to come. */
export const newGameSchema = scoreboardPatchSchema.superRefine((g, ctx) => {
  const problem = g.startsAt === undefined ? null : startProblem(g.startsAt);
  if (problem) ctx.addIssue({ code: 'custom', path: ['startsAt'], message: problem });
});

export type ScoreboardPatch = z.infer<typeof scoreboardPatchSchema>;

/**
 * PATCH /api/games/{gameKey}: the fields, and optionally baseSeq, the game topic's seq the
 * writer last saw (DESIGN §9): a field changed after it is not overwritten (409); and device,
 * the browser or phone making the edit, so its Undo can take the edit back (DESIGN §10).
 */
export const scoreboardWriteSchema = scoreboardPatchSchema.extend({
  baseSeq: z.number().int().nonnegative().optional(),
  device: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'a device id is 1–100 letters, digits, _ or -')
    .optional(),
});

export const scoreboardSchema = scoreboardFieldsSchema.extend({
  gameKey: z.string(),
  uid: z.string(),
  /** Set by the server on each update, in ms. */
  timeStamp: z.number(),
});
export type Scoreboard = z.infer<typeof scoreboardSchema>;

export const defaultScoreboard: ScoreboardFields = {
  gameName: 'New Game',
  gamePeriod: 'Starting Soon',
  sportID: 1,
  homeTeamName: 'Home',
  awayTeamName: 'Away',
  homeScore: 0,
  awayScore: 0,
  homeScoreGoals: 0,
  awayScoreGoals: 0,
  homeScorePoints: 0,
  awayScorePoints: 0,
  homePossession: false,
  homeManUp: false,
  awayManUp: false,
  homeShots: 0,
  awayShots: 0,
  homeSaves: 0,
  awaySaves: 0,
  homeFouls: 0,
  awayFouls: 0,
  ballOn: 0,
  toGo: 0,
  down: 0,
  base1: false,
  base2: false,
  base3: false,
  balls: 0,
  strikes: 0,
  outs: 0,
  maxSets: 3,
  homeSet1: 0,
  homeSet2: 0,
  homeSet3: 0,
  homeSet4: 0,
  homeSet5: 0,
  awaySet1: 0,
  awaySet2: 0,
  awaySet3: 0,
  awaySet4: 0,
  awaySet5: 0,
  homeScoreGames: 0,
  awayScoreGames: 0,
  homeScorePointsTennis: '0',
  awayScorePointsTennis: '0',
};

export const clockSchema = z.object({
  formattedTime: safeText().max(20),
  seconds: z.number().int().min(0).max(1_000_000),
});
export type Clock = z.infer<typeof clockSchema>;

export const gameCommentInputSchema = z.object({
  homeTeamName: text.default(''),
  homeScore: count.default(0),
  awayTeamName: text.default(''),
  awayScore: count.default(0),
  gameComment: safeText().trim().min(1).max(2000),
  imageURL: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .or(z.literal(''))
    .default(''),
});
export type GameCommentInput = z.infer<typeof gameCommentInputSchema>;

// DESIGN §8: a tag is NFC-normalised (é typed as e + accent is the same tag) and may use
// letters of any script, with their combining marks.
export const tagNameSchema = z
  .string()
  .trim()
  .normalize('NFC')
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{M}\p{N}_-]+$/u, 'tags are letters, numbers, _ and - only');

/**
 * What two tags are compared by: Unicode case-insensitively ("ÉMOJI" is "émoji", "STRASSE" is
 * "straße"). Upper then lower case folds the letters whose lower case has no single capital.
 */
export const tagMatchKey = (name: string): string =>
  name.normalize('NFC').toUpperCase().toLowerCase();
export const gameTagsInputSchema = z.object({ tags: z.array(tagNameSchema).max(20) });

export const scorekeeperMessageSchema = z.object({
  scoreKeeperMessage: safeText()
    .trim()
    .min(1, 'Please write a message')
    .max(
      SCOREKEEPER_MESSAGE_MAX,
      `Please keep the message to ${SCOREKEEPER_MESSAGE_MAX} characters or fewer`,
    ),
});
