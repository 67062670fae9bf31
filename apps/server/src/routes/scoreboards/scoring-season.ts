import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { boxScore } from '@sagan/shared/box-score';
import type { GameSheetPlayer } from '@sagan/shared/game-sheets';
import type { GameEventBody } from '@sagan/shared/game-log';
import { refusalsWithBadRequest } from '@sagan/shared/http';
import { keySchema } from '@sagan/shared/keys';
import { defaultScoreboard } from '@sagan/shared/scoreboard';
import type { Team } from '@sagan/shared/scorekeeping';
import {
  scoringSeasonSchema,
  scoringTotals,
  type ScoringSeason,
} from '@sagan/shared/scoring-season';
import type { Queryable } from '../../db/db.ts';
import { notFound } from '../../lib/http-errors.ts';
import { requireUser } from '../../plugins/auth.ts';

// A team sheet's season of box scores (DESIGN §10): the games linked to the sheet, each folded
// from its log like the board's box score, summed per player. Its owner's, like the play
// counter's season view.

/** uid's sheet's season; null when the sheet is not uid's. */
async function loadScoringSeason(
  q: Queryable,
  uid: string,
  teamKey: string,
): Promise<ScoringSeason | null> {
  const team = await q.query<{ team_name: string }>(
    'SELECT team_name FROM teams WHERE team_key = $1 AND uid = $2',
    [teamKey, uid],
  );
  if (!team[0]) return null;
  const links = await q.query<{
    game_key: string;
    game_name: string | null;
    sport_id: number;
    side: Team;
    players: GameSheetPlayer[];
    privacy_initials_only: boolean;
  }>(
    `SELECT s.game_key, g.fields ->> 'gameName' AS game_name,
            COALESCE((g.fields ->> 'sportID')::int, 1) AS sport_id, s.side, s.players,
            s.privacy_initials_only
     FROM game_sheets s JOIN games g ON g.game_key = s.game_key
     WHERE s.team_key = $1 ORDER BY g.created_at, s.game_key, s.side`,
    [teamKey],
  );
  const games = [];
  for (const link of links) {
    const log = await q.query<{ event_id: string; body: GameEventBody; held: boolean }>(
      'SELECT event_id, body, held FROM game_events WHERE game_key = $1 ORDER BY seq, at',
      [link.game_key],
    );
    const box = boxScore(
      defaultScoreboard,
      log.map((e) => ({ id: e.event_id, body: e.body, held: e.held })),
    );
    games.push({
      lines: box[link.side],
      players: link.players,
      initialsOnly: link.privacy_initials_only,
    });
  }
  return {
    teamKey,
    teamName: team[0].team_name,
    games: [...new Map(links.map((l) => [l.game_key, l])).values()].map((l) => ({
      gameKey: l.game_key,
      gameName: l.game_name ?? '',
      sportID: l.sport_id,
    })),
    players: scoringTotals(games),
  };
}

export default async function scoringSeasonRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/scoring-seasons/:teamKey',
    {
      schema: {
        tags: ['scorekeeping'],
        summary:
          "A team sheet's season: each player's box-score points (runs and hits in baseball) " +
          'over the games linked to the sheet (its owner only)',
        params: z.object({ teamKey: keySchema }),
        response: { 200: scoringSeasonSchema, ...refusalsWithBadRequest },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const season = await loadScoringSeason(app.db, uid, req.params.teamKey);
      if (!season) throw notFound('Team sheet not found');
      return season;
    },
  );
}
