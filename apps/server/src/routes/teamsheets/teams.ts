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
import type { PhotoStore } from '../photos/public.ts';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { createTeam, deleteTeam, listTeams, loadSheet, touchTeam, updateTeam } from './repo.ts';
import { ownedTeam, sheetOwnerGuard } from './policy.ts';
import { audienceOf } from './topics.ts';
import { sharedViewsOfTeam } from '../playcounts/public.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { applyChange, writeChange } from '../../lib/write.ts';

export function teamRoutes(fastify: FastifyInstance, store: PhotoStore): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

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
          "Create a team ('New Team' / 'Description', SPEC §9). The same Idempotency-Key (or, " +
          'from older clients, createKey) again answers with the team the first request made ' +
          '(200) instead of making another.',
        headers: idempotentHeadersSchema,
        body: teamCreateSchema,
        response: { 200: teamSummarySchema, 201: teamSummarySchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { answer, replayed } = await applyChange(app, req, {
        createKey: req.body?.createKey,
        guard: async () => user,
        write: async (q, owner) => {
          const made = await createTeam(q, owner.uid, DEFAULT_TEAM);
          return { answer: made, touched: audienceOf(await touchTeam(q, made.teamKey)) };
        },
      });
      return reply.code(replayed ? 200 : 201).send({ ...answer, publishedAsKey: '' });
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
        headers: idempotentHeadersSchema,
        params: teamKeyParams,
        body: teamInputSchema,
        response: { 200: teamSheetSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          await updateTeam(q, team.team_key, req.body);
          const touched = audienceOf(await touchTeam(q, team.team_key));
          return { answer: await loadSheet(q, await ownedTeam(q, user, team.team_key)), touched };
        },
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
        headers: idempotentHeadersSchema,
        params: teamKeyParams,
        response: { 200: okSchema, ...refusals },
      },
    },
    async (req) => {
      const { answer: photoIds, replayed } = await applyChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          // Its play counts keep their copy of its privacy; their open shared views reload now.
          const views = await sharedViewsOfTeam(q, team.team_key);
          const gone = await deleteTeam(q, team.team_key);
          return { answer: gone.photoIds, touched: [...audienceOf(gone.change), ...views] };
        },
      });
      // Only once the rows are gone for good; a file left by a crash here goes at the next sweep.
      if (!replayed) for (const id of photoIds) await store.removeFile(id);
      return { ok: true as const };
    },
  );
}
