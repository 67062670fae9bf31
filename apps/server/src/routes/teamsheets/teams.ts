import type { FastifyInstance } from 'fastify';
import { refusals } from '@sagan/shared/http';
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
import { insertTeam, listTeams, loadSheet, ownedTeam, updateTeam } from './repo.ts';
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
        response: { 200: teamsListSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return listTeams(db, user.uid);
    },
  );

  app.post(
    '/teams',
    {
      config: writeLimit(app.config.rateLimitFactor, 'create'),
      schema: {
        tags: ['teamsheets'],
        summary: "Create a team ('New Team' / 'Description', SPEC §9)",
        response: { 201: teamSummarySchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const teamKey = newKey();
      await db.tx(async (q) => {
        await insertTeam(q, teamKey, user.uid, DEFAULT_TEAM);
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
        response: { 200: teamSheetSchema, ...refusals },
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
        response: { 200: teamSheetSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        await updateTeam(q, team.team_key, req.body);
        await hub.changed(q, [teamTopic.name(team.team_key)]);
        return loadSheet(q, await ownedTeam(q, user, team.team_key));
      });
    },
  );
}
