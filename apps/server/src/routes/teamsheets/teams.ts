import type { FastifyInstance } from 'fastify';
import { okSchema } from '@sagan/shared/http';
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
import { createTeam, deleteTeam, listTeams, loadSheet, touchTeam, updateTeam } from './repo.ts';
import { ownedTeam, sheetOwnerGuard } from './policy.ts';
import { audienceOf } from './topics.ts';
import { sharedViewsOfTeam } from '../playcounts/public.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { applyChange, writeChange } from '../../lib/write.ts';

export function teamRoutes(fastify: FastifyInstance, store: PhotoStore): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const declare = signedInRoutes(app, 'teamsheets');

  app.get(
    '/teams',
    declare.read(
      'My teams and the published sheets I follow (SPEC §2 Team sheets list)',
      {},
      { 200: teamsListSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      return listTeams(db, user.uid);
    },
  );

  app.post(
    '/teams',
    declare.write(
      "Create a team ('New Team' / 'Description', SPEC §9). The same Idempotency-Key (or, " +
        'from older clients, createKey) again answers with the team the first request made ' +
        '(200) instead of making another.',
      { body: teamCreateSchema },
      { 200: teamSummarySchema, 201: teamSummarySchema },
      'create',
    ),
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
    declare.read(
      "The owner's whole team sheet",
      { params: teamKeyParams },
      { 200: teamSheetSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      return db.tx(async (q) => loadSheet(q, await ownedTeam(q, user, req.params.teamKey)));
    },
  );

  app.patch(
    '/teams/:teamKey',
    declare.write(
      'Save the team name and notes (SPEC §7: also sets active)',
      { params: teamKeyParams, body: teamInputSchema },
      { 200: teamSheetSchema },
    ),
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
    declare.write(
      'Delete a team: its players, groups, photos and public copy (the link then answers ' +
        'not-found; followers lose it)',
      { params: teamKeyParams },
      { 200: okSchema },
    ),
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
