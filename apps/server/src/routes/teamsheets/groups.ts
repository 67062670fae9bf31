import type { FastifyInstance } from 'fastify';
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
import { badRequest, notFound } from '../../lib/http-errors.ts';
import {
  countGroups,
  findPlayer,
  groupExists,
  insertGroup,
  renameGroup,
  setMembership,
  touchTeam,
} from './repo.ts';
import { sheetOwnerGuard } from './policy.ts';
import { audienceOf } from './topics.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { writeChange } from '../../lib/write.ts';

const MAX_GROUPS = 100;

export function groupRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const declare = signedInRoutes(app, 'teamsheets');

  app.post(
    '/teams/:teamKey/groups',
    declare.write(
      'Create a group (a lineup); the same Idempotency-Key (or createKey) again answers ' +
        'with that group',
      { params: teamKeyParams, body: groupCreateSchema },
      { 201: groupSchema },
    ),
    async (req, reply) => {
      const group = await writeChange(app, req, {
        createKey: req.body.createKey,
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          if ((await countGroups(q, team.team_key)) >= MAX_GROUPS)
            throw badRequest(`A team can have at most ${MAX_GROUPS} groups`);
          const made = await insertGroup(q, team.team_key, req.body.groupName);
          return { answer: made, touched: audienceOf(await touchTeam(q, team.team_key)) };
        },
      });
      return reply.code(201).send(group);
    },
  );

  app.patch(
    '/teams/:teamKey/groups/:groupKey',
    declare.write(
      "Rename a group ('The Group's Name')",
      { params: groupKeyParams, body: groupNameSchema },
      { 200: groupSchema },
    ),
    async (req) => {
      const { groupKey } = req.params;
      return writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          if (!(await renameGroup(q, team.team_key, groupKey, req.body.groupName)))
            throw notFound('Group not found');
          const touched = audienceOf(await touchTeam(q, team.team_key));
          return { answer: { groupKey, key: groupKey, groupName: req.body.groupName }, touched };
        },
      });
    },
  );

  app.put(
    '/teams/:teamKey/groups/:groupKey/members/:playerKey',
    declare.write(
      "Set a player's location in a group (SPEC §3 codes 0-3)",
      { params: memberParams, body: locationInputSchema },
      { 200: membershipSchema },
    ),
    async (req) => {
      const { groupKey, playerKey } = req.params;
      return writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          if (!(await groupExists(q, team.team_key, groupKey))) throw notFound('Group not found');
          if (!(await findPlayer(q, team.team_key, playerKey))) throw notFound('Player not found');
          await setMembership(q, team.team_key, groupKey, playerKey, req.body.location);
          const touched = audienceOf(await touchTeam(q, team.team_key));
          return { answer: { location: req.body.location, playerKey }, touched };
        },
      });
    },
  );
}
