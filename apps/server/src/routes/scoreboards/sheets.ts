import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import {
  gameSheetInputSchema,
  gameSheetParamsSchema,
  gameSheetsSchema,
} from '@sagan/shared/game-sheets';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { gameKeyParamsSchema } from '@sagan/shared/scoreboard-views';
import { notFound } from '../../lib/http-errors.ts';
import { writeChange } from '../../lib/write.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { requireUser } from '../../plugins/auth.ts';
import { scoredGame } from './policy.ts';
import { linkSheet, loadSheetRows, sheetsOf, unlinkSheet } from './sheet-repo.ts';
import { audienceOf } from './topics.ts';

// Who scored (DESIGN §10): linking a game's team to one of the owner's sheets, and the scorers'
// view of the linked sheets (their players, to pick who scored).

export default async function gameSheetRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['scorekeeping'];

  app.get(
    '/games/:gameKey/sheets',
    {
      schema: {
        tags,
        summary: "The team sheets linked to the game's teams, with full names (scorers only)",
        params: gameKeyParamsSchema,
        response: { 200: gameSheetsSchema, ...refusalsWithBadRequest },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      await scoredGame(app.db, uid, req.params.gameKey, 'score');
      return sheetsOf(await loadSheetRows(app.db, req.params.gameKey));
    },
  );

  app.put(
    '/games/:gameKey/sheets/:side',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags,
        summary:
          "Link the home or away team to one of the owner's team sheets (a copy of its " +
          'players and privacy is kept with the game), or unlink it with null (owner only)',
        headers: idempotentHeadersSchema,
        params: gameSheetParamsSchema,
        body: gameSheetInputSchema,
        response: {
          200: gameSheetsSchema,
          ...refusalsWithBadRequest,
          422: errorSchema,
        },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const { gameKey, side } = req.params;
      const { teamKey } = req.body;
      return writeChange(app, req, {
        guard: (q) => scoredGame(q, uid, gameKey, 'owner'),
        write: async (q) => {
          if (teamKey === null) await unlinkSheet(q, gameKey, side);
          else if (!(await linkSheet(q, gameKey, side, teamKey, uid))) {
            throw notFound('No team sheet of yours with this key');
          }
          return {
            touched: audienceOf({ kind: 'sheets', gameKey }),
            answer: sheetsOf(await loadSheetRows(q, gameKey)),
          };
        },
      });
    },
  );
}
