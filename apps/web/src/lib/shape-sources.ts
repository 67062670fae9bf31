// The shared zod schemas a viewer's first load reads, and how each becomes a Shape (shape.ts).
// Never imported by the app, which would load zod: scripts/web-shapes.ts writes shapes.ts and
// viewer-shapes.ts from this, and shape.test.ts checks that they are what this derives today.
import { z } from 'zod';
import { appConfigSchema, sessionStateSchema, sessionUserSchema } from '@sagan/shared/auth';
import { keySchema } from '@sagan/shared/keys';
import { watchersSchema } from '@sagan/shared/scoreboard-views';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameOwnTopic } from '@sagan/shared/topics/game-own';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { tagTopic } from '@sagan/shared/topics/tag';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { playCountShareTopic } from '@sagan/shared/topics/playcount-share';
import { publicRosterResponseSchema } from '@sagan/shared/teamsheet-schemas';
import { SHAPE_KEYWORDS, type Shape } from './shape.ts';

/**
 * By the file they are written to: what the shell reads on every page (shapes.ts), what only
 * the viewer's pages read (viewer-shapes.ts), what only the public team sheet and player
 * pages read (roster-shapes.ts), what the lists of games read (list-shapes.ts: the dashboard,
 * Scoreboards, a tag's list) and what a play count's shared link reads (playcount-shapes.ts),
 * so the other pages do not load those.
 */
export const SHAPE_FILES = {
  'shapes.ts': {
    sessionState: sessionStateSchema,
    sessionUser: sessionUserSchema,
    appConfig: appConfigSchema,
    myNoticesTopic: myNoticesTopic.schema,
    key: keySchema,
    watchers: watchersSchema,
  },
  'viewer-shapes.ts': {
    gameTopic: gameTopic.schema,
    gameOwnTopic: gameOwnTopic.schema,
    clockTopic: clockTopic.schema,
    gameDetailTopic: gameDetailTopic.schema,
    favoritesTopic: favoritesTopic.schema,
    myGamesTopic: myGamesTopic.schema,
  },
  'roster-shapes.ts': {
    rosterTopic: rosterTopic.schema,
    /** Whether the signed-in viewer follows the sheet: all the follow state reads of the answer. */
    rosterFollowed: publicRosterResponseSchema.pick({ followed: true }),
  },
  'list-shapes.ts': {
    /** The recent and the upcoming games: one schema, two topics. */
    gameListTopic: recentGamesTopic.schema,
    tagsTopic: tagsTopic.schema,
    tagTopic: tagTopic.schema,
    followedTagsTopic: followedTagsTopic.schema,
    myScoringTopic: myScoringTopic.schema,
  },
  'playcount-shapes.ts': {
    playCountShareTopic: playCountShareTopic.schema,
  },
} satisfies Record<string, Record<string, z.ZodType>>;

export const SHAPE_SOURCES = {
  ...SHAPE_FILES['shapes.ts'],
  ...SHAPE_FILES['viewer-shapes.ts'],
  ...SHAPE_FILES['roster-shapes.ts'],
  ...SHAPE_FILES['list-shapes.ts'],
  ...SHAPE_FILES['playcount-shapes.ts'],
};

/**
 * Words JSON Schema may carry that a Shape leaves out: notes, and string formats (a comment's
 * image URL), which the server checked when the value was written.
 */
const DROPPED = new Set(['$schema', 'description', 'title', 'format']);

/** Keeps the keywords a Shape has, and refuses a schema that needs one it has not. */
function toShape(node: unknown, at: string): Shape {
  if (!node || typeof node !== 'object' || Array.isArray(node))
    throw new Error(`${at}: not a schema`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    // A record's keys (z.record(z.string(), …)): every key JSON can hold is a string.
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    if (!(SHAPE_KEYWORDS as readonly string[]).includes(key))
      throw new Error(`${at}: the shape reader has no '${key}' (add it to shape.ts)`);
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          toShape(v, `${at}.${k}`),
        ]),
      );
    else if (key === 'anyOf')
      out[key] = (value as unknown[]).map((v, i) => toShape(v, `${at}|${i}`));
    else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object'))
      out[key] = toShape(value, `${at}[]`);
    else if (key === 'const' && value !== null && typeof value === 'object')
      throw new Error(`${at}: the shape reader compares only simple constants`);
    else out[key] = value;
  }
  return out as Shape;
}

/** The Shape of a zod schema: its JSON Schema as a parse's input, in the reader's words. */
export function shapeOf(schema: z.ZodType): Shape {
  // 'input': a field with a default may be missing, as zod's parse allows; the reader fills it.
  return toShape(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }), 'schema');
}
