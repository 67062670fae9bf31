import { z } from 'zod';
import { keyedTopic } from './define.ts';

const cell = z
  .object({
    points: z.number().int(),
    goals: z.number().int().optional(),
    behinds: z.number().int().optional(),
  })
  .nullable();
const rhe = z.object({
  runs: z.number().int(),
  hits: z.number().int(),
  errors: z.number().int(),
});

/** One scorer of the box score, named as the game's copy of the sheet's privacy allows. */
const boxLine = z.object({
  player: z.string(),
  jersey: z.string(),
  name: z.string(),
  points: z.number().int(),
  goals: z.number().int().optional(),
  behinds: z.number().int().optional(),
  /** Baseball: the hits a batter got (points are the runs they scored). */
  hits: z.number().int().optional(),
});

/**
 * A game's line score (line-score.ts folds it from the log) and, for the teams linked to a
 * team sheet, who scored (box-score.ts).
 */
export const gameDetailSchema = z
  .object({
    lineScore: z.object({
      kind: z.enum(['points', 'goals', 'innings', 'sets']),
      periods: z.array(
        z.object({
          label: z.string(),
          home: cell,
          away: cell,
          live: z.boolean().optional(),
          tiebreak: z.object({ home: z.number().int(), away: z.number().int() }).optional(),
        }),
      ),
      rhe: z.object({ home: rhe, away: rhe }).optional(),
    }),
    /** Only the sides linked to a sheet; each lists the players who scored. */
    boxScore: z
      .object({ home: z.array(boxLine).optional(), away: z.array(boxLine).optional() })
      .optional(),
  })
  .nullable();
export type GameDetail = NonNullable<z.infer<typeof gameDetailSchema>>;

/**
 * gamedetail:{gameKey}: the line score, on its own topic so the game: frame every viewer gets
 * stays small (DESIGN §10); null when there is no such game.
 */
export const gameDetailTopic = keyedTopic('gamedetail', gameDetailSchema, {
  private: false,
  coalesce: false,
});

/**
 * gamedetailown:{gameKey}: the same detail as its scorers (owner and co-scorers) read it: the
 * box score names the players of a linked sheet even while the sheet is unpublished, which
 * the public topic does not (DESIGN §10). It follows gamedetail:{gameKey}: the same sequence
 * numbers, refreshed by the same changes.
 */
export const gameDetailOwnTopic = keyedTopic('gamedetailown', gameDetailSchema, {
  private: true,
  coalesce: false,
});
