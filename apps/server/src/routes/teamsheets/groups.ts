import type { FastifyInstance } from 'fastify';
import { refusals } from '@sagan/shared/http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupNameSchema } from '@sagan/shared/teamsheet';
import {
  groupCreateSchema,
  groupKeyParams,
  groupSchema,
  locationInputSchema,
  memberParams,
  membershipSchema,
  teamKeyParams,
} from '@sagan/shared/teamsheet-schemas';
import { requireUser } from '../../plugins/auth.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import {
  countGroups,
  findPlayer,
  groupExists,
  insertGroup,
  ownedTeam,
  renameGroup,
  setMembership,
  touchTeam,
} from './repo.ts';
import { writeLimit } from '../../lib/write-limits.ts';

const MAX_GROUPS = 100;

export function groupRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;
  const changed = hub.changed.bind(hub);

  app.post(
    '/teams/:teamKey/groups',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Create a group (a lineup); the same createKey again answers with that group',
        params: teamKeyParams,
        body: groupCreateSchema,
        response: { 201: groupSchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const group = await db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        if ((await countGroups(q, team.team_key)) >= MAX_GROUPS)
          throw badRequest(`A team can have at most ${MAX_GROUPS} groups`);
        const made = await insertGroup(q, team.team_key, req.body.groupName, req.body.createKey);
        await touchTeam(q, changed, team.team_key);
        return made;
      });
      return reply.code(201).send(group);
    },
  );

  app.patch(
    '/teams/:teamKey/groups/:groupKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: "Rename a group ('The Group's Name')",
        params: groupKeyParams,
        body: groupNameSchema,
        response: { 200: groupSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        if (!(await renameGroup(q, team.team_key, req.params.groupKey, req.body.groupName)))
          throw notFound('Group not found');
        await touchTeam(q, changed, team.team_key);
        const { groupKey } = req.params;
        return { groupKey, key: groupKey, groupName: req.body.groupName };
      });
    },
  );

  app.put(
    '/teams/:teamKey/groups/:groupKey/members/:playerKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: "Set a player's location in a group (SPEC §3 codes 0-3)",
        params: memberParams,
        body: locationInputSchema,
        response: { 200: membershipSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { groupKey, playerKey } = req.params;
      return db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        if (!(await groupExists(q, team.team_key, groupKey))) throw notFound('Group not found');
        if (!(await findPlayer(q, team.team_key, playerKey))) throw notFound('Player not found');
        await setMembership(q, team.team_key, groupKey, playerKey, req.body.location);
        await touchTeam(q, changed, team.team_key);
        return { location: req.body.location, playerKey };
      });
    },
  );
}
