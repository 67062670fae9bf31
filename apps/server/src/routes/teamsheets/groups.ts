import type { FastifyInstance } from 'fastify';
import { refusals } from '@sagan/shared/http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groupNameSchema } from '@sagan/shared/teamsheet';
import {
  groupKeyParams,
  groupSchema,
  locationInputSchema,
  memberParams,
  membershipSchema,
  teamKeyParams,
} from '@sagan/shared/teamsheet-schemas';
import { requireUser } from '../../plugins/auth.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';
import { findPlayer, ownedTeam, touchTeam } from './repo.ts';
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
        summary: 'Create a group (a lineup)',
        params: teamKeyParams,
        body: groupNameSchema,
        response: { 201: groupSchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const group = await db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        const [{ n } = { n: 0 }] = await q.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM team_groups WHERE team_key = $1',
          [team.team_key],
        );
        if (n >= MAX_GROUPS) throw badRequest(`A team can have at most ${MAX_GROUPS} groups`);
        const groupKey = newKey();
        await q.query(
          'INSERT INTO team_groups (team_key, group_key, group_name) VALUES ($1, $2, $3)',
          [team.team_key, groupKey, req.body.groupName],
        );
        await touchTeam(q, changed, team.team_key);
        return { groupKey, key: groupKey, groupName: req.body.groupName };
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
        const rows = await q.query(
          'UPDATE team_groups SET group_name = $3 WHERE team_key = $1 AND group_key = $2 RETURNING 1',
          [team.team_key, req.params.groupKey, req.body.groupName],
        );
        if (!rows.length) throw notFound('Group not found');
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
        const group = await q.query(
          'SELECT 1 FROM team_groups WHERE team_key = $1 AND group_key = $2',
          [team.team_key, groupKey],
        );
        if (!group.length) throw notFound('Group not found');
        if (!(await findPlayer(q, team.team_key, playerKey))) throw notFound('Player not found');
        await q.query(
          `INSERT INTO group_membership (team_key, group_key, player_key, location)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (team_key, group_key, player_key) DO UPDATE SET location = EXCLUDED.location`,
          [team.team_key, groupKey, playerKey, req.body.location],
        );
        await touchTeam(q, changed, team.team_key);
        return { location: req.body.location, playerKey };
      });
    },
  );
}
