import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import {
  gameSheetInputSchema,
  gameSheetParamsSchema,
  gameSheetsSchema,
  type GameSheetPlayer,
} from '@sagan/shared/game-sheets';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { gameKeyParamsSchema } from '@sagan/shared/scoreboard-views';
import { compareJersey } from '@sagan/shared/teamsheet';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import type { Queryable } from '../../db/db.ts';
import { guardGame } from '../../lib/game-guard.ts';
import { notFound } from '../../lib/http-errors.ts';
import { writeOnce } from '../../lib/idempotency.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { requireUser } from '../../plugins/auth.ts';
import { findGame } from './repo.ts';
import { loadSheetRows, sheetsOf } from './sheet-repo.ts';

// Who scored (DESIGN §10): linking a game's team to one of the owner's sheets, and the scorers'
// view of the linked sheets (their players, to pick who scored).

/** The game, for someone who may `need` it: 404 for no such game, 403 for anyone else. */
async function guarded(q: Queryable, uid: string, gameKey: string, need: 'score' | 'owner') {
  const game = await findGame(q, gameKey);
  if (!game) throw notFound('No game with this key');
  await guardGame(q, gameKey, game.uid, uid, need);
  return game;
}

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
      await guarded(app.db, uid, req.params.gameKey, 'score');
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
      return writeOnce(app.db, req, async (q) => {
        await guarded(q, uid, gameKey, 'owner');
        if (teamKey === null) {
          await q.query('DELETE FROM game_sheets WHERE game_key = $1 AND side = $2', [
            gameKey,
            side,
          ]);
        } else {
          const team = await q.query<{
            team_name: string;
            public_initials_only: boolean;
            published: boolean;
          }>(
            `SELECT t.team_name, t.public_initials_only,
                    EXISTS (SELECT 1 FROM rosters r WHERE r.team_key = t.team_key) AS published
             FROM teams t WHERE t.team_key = $1 AND t.uid = $2`,
            [teamKey, uid],
          );
          if (!team[0]) throw notFound('No team sheet of yours with this key');
          const players = await q.query<GameSheetPlayer>(
            `SELECT player_key AS "playerKey", jersey, player_name AS "playerName"
             FROM players WHERE team_key = $1 ORDER BY player_key`,
            [teamKey],
          );
          // In the sheet's own order: by jersey, then name.
          players.sort(
            (a, b) => compareJersey(a.jersey, b.jersey) || a.playerName.localeCompare(b.playerName),
          );
          await q.query(
            `INSERT INTO game_sheets (game_key, side, team_key, team_name, players,
                                      privacy_initials_only, sheet_published)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
             ON CONFLICT (game_key, side) DO UPDATE SET team_key = $3, team_name = $4,
               players = $5::jsonb, privacy_initials_only = $6, sheet_published = $7`,
            [
              gameKey,
              side,
              teamKey,
              team[0].team_name,
              JSON.stringify(players),
              team[0].public_initials_only,
              team[0].published,
            ],
          );
        }
        await app.hub.changed(q, [gameDetailTopic.name(gameKey)]);
        return sheetsOf(await loadSheetRows(q, gameKey));
      });
    },
  );
}
