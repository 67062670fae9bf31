import { z } from 'zod';
import type { TopicFamily } from './define.ts';

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

/** A game's line score (line-score.ts folds it from the log). */
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
        }),
      ),
      rhe: z.object({ home: rhe, away: rhe }).optional(),
    }),
  })
  .nullable();
export type GameDetail = NonNullable<z.infer<typeof gameDetailSchema>>;

/**
 * gamedetail:{gameKey}: the line score, on its own topic so the game: frame every viewer gets
 * stays small (DESIGN §10); null when there is no such game.
 */
export const gameDetailTopic = {
  prefix: 'gamedetail',
  name: (gameKey: string) => `gamedetail:${gameKey}`,
  schema: gameDetailSchema,
  private: false,
  coalesce: false,
} satisfies TopicFamily<[gameKey: string], typeof gameDetailSchema>;
