import type { FastifyInstance } from 'fastify';
import { okSchema, refusals } from '@sagan/shared/http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEFAULT_TEAM, teamInputSchema } from '@sagan/shared/teamsheet';
import {
  teamCreateSchema,
  teamKeyParams,
  teamSheetSchema,
  teamsListSchema,
  teamSummarySchema,
} from '@sagan/shared/teamsheet-schemas';
import { requireUser } from '../../plugins/auth.ts';
import type { PhotoStore } from '../../photos.ts';
import {
  createTeam,
  deleteTeam,
  listTeams,
  loadSheet,
  ownedTeam,
  touchTeam,
  updateTeam,
} from './repo.ts';
import { sharedViewsOfTeam } from '../playcounts/public.ts';
import { writeLimit } from '../../lib/write-limits.ts';

export function teamRoutes(fastify: FastifyInstance, store: PhotoStore): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;
  const changed = hub.changed.bind(hub);

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
        summary:
          "Create a team ('New Team' / 'Description', SPEC §9). The same createKey again " +
          'answers with the team the first request made (200) instead of making another.',
        body: teamCreateSchema,
        response: { 200: teamSummarySchema, 201: teamSummarySchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const team = await db.tx(async (q) => {
        const made = await createTeam(q, user.uid, DEFAULT_TEAM, req.body?.createKey);
        if (made.created) await touchTeam(q, changed, made.teamKey);
        return made;
      });
      const { created, ...summary } = team;
      return reply.code(created ? 201 : 200).send({ ...summary, publishedAsKey: '' });
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
        await touchTeam(q, changed, team.team_key);
        return loadSheet(q, await ownedTeam(q, user, team.team_key));
      });
    },
  );

  app.delete(
    '/teams/:teamKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary:
          'Delete a team: its players, groups, photos and public copy (the link then answers ' +
          'not-found; followers lose it)',
        params: teamKeyParams,
        response: { 200: okSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const photoIds = await db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        // Its play counts keep their copy of its privacy; their open shared views reload now.
        const views = await sharedViewsOfTeam(q, team.team_key);
        const gone = await deleteTeam(q, changed, team.team_key);
        await changed(q, views);
        return gone;
      });
      // Only once the rows are gone for good; a file left by a crash here goes at the next sweep.
      for (const id of photoIds) await store.removeFile(id);
      return { ok: true as const };
    },
  );
}
