import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { teamTopic } from '@sagan/shared/topics/team';
import { DEFAULT_TEAM, teamInputSchema } from '@sagan/shared/teamsheet';
import {
  teamKeyParams,
  teamSheetSchema,
  teamsListSchema,
  teamSummarySchema,
} from '@sagan/shared/teamsheet-schemas';
import { requireUser } from '../../plugins/auth.ts';
import { newKey } from '../../lib/keys.ts';
import { loadSheet, ownedTeam } from './repo.ts';
import { writeLimit } from '../../lib/write-limits.ts';

export function teamRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;

  app.get(
    '/teams',
    {
      schema: {
        tags: ['teamsheets'],
        summary: 'My teams and the published sheets I follow (SPEC §2 Team sheets list)',
        response: { 200: teamsListSchema },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const mine = await db.query<{
        team_key: string;
        team_name: string;
        team_notes: string;
        published_as_key: string | null;
      }>(
        `SELECT t.team_key, t.team_name, t.team_notes, r.published_as_key
         FROM teams t LEFT JOIN rosters r ON r.published_as_key = t.published_as_key
         WHERE t.uid = $1 ORDER BY t.created_at, t.team_key`,
        [user.uid],
      );
      // Only sheets still published: a View button must lead somewhere.
      const following = await db.query<{ published_as_key: string; team_name: string }>(
        `SELECT f.published_as_key, COALESCE(r.sheet->>'teamName', f.team_name) AS team_name
         FROM favorite_rosters f JOIN rosters r ON r.published_as_key = f.published_as_key
         WHERE f.uid = $1 ORDER BY team_name, f.published_as_key`,
        [user.uid],
      );
      return {
        mine: mine.map((t) => ({
          teamKey: t.team_key,
          teamName: t.team_name,
          teamNotes: t.team_notes,
          publishedAsKey: t.published_as_key ?? '',
        })),
        following: following.map((f) => ({
          publishedAsKey: f.published_as_key,
          teamName: f.team_name,
        })),
      };
    },
  );

  app.post(
    '/teams',
    {
      config: writeLimit(app.config.rateLimitFactor, 'create'),
      schema: {
        tags: ['teamsheets'],
        summary: "Create a team ('New Team' / 'Description', SPEC §9)",
        response: { 201: teamSummarySchema },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const teamKey = newKey();
      await db.tx(async (q) => {
        await q.query(
          'INSERT INTO teams (team_key, uid, team_name, team_notes) VALUES ($1, $2, $3, $4)',
          [teamKey, user.uid, DEFAULT_TEAM.teamName, DEFAULT_TEAM.teamNotes],
        );
        await hub.changed(q, [teamTopic.name(teamKey)]);
      });
      return reply.code(201).send({ teamKey, ...DEFAULT_TEAM, publishedAsKey: '' });
    },
  );

  app.get(
    '/teams/:teamKey',
    {
      schema: {
        tags: ['teamsheets'],
        summary: "The owner's whole team sheet",
        params: teamKeyParams,
        response: { 200: teamSheetSchema },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return db.tx(async (q) => loadSheet(q, await ownedTeam(q, user, req.params.teamKey)));
    },
  );

  app.patch(
    '/teams/:teamKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Save the team name and notes (SPEC §7: also sets active)',
        params: teamKeyParams,
        body: teamInputSchema,
        response: { 200: teamSheetSchema },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        await q.query(
          `UPDATE teams SET team_name = $2, team_notes = $3, active = true, updated_at = now()
           WHERE team_key = $1`,
          [team.team_key, req.body.teamName, req.body.teamNotes],
        );
        await hub.changed(q, [teamTopic.name(team.team_key)]);
        return loadSheet(q, await ownedTeam(q, user, team.team_key));
      });
    },
  );
}
