import type { FastifyInstance } from 'fastify';
import { refusals } from '@sagan/shared/http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { teamTopic } from '@sagan/shared/topics/team';
import { teamKeyParams } from '@sagan/shared/teamsheet-schemas';
import { publicPrivacySchema } from '@sagan/shared/teamsheet-privacy';
import { requireUser } from '../../plugins/auth.ts';
import { ownedTeam, readPrivacy, writePrivacy } from './repo.ts';
import { writeLimit } from '../../lib/write-limits.ts';

// Children's privacy: the owner's choice of what the public sheet shows.
export function privacyRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;

  app.get(
    '/teams/:teamKey/privacy',
    {
      schema: {
        tags: ['teamsheets'],
        summary: 'What the public sheet shows: initials instead of names, photos hidden',
        params: teamKeyParams,
        response: { 200: publicPrivacySchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await ownedTeam(db, user, req.params.teamKey);
      return readPrivacy(db, req.params.teamKey);
    },
  );

  app.put(
    '/teams/:teamKey/privacy',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Choose what the public sheet shows (applies at once, no republish needed)',
        params: teamKeyParams,
        body: publicPrivacySchema,
        response: { 200: publicPrivacySchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        await writePrivacy(q, team.team_key, req.body);
        // An open public page re-renders without the names/photos right away.
        await hub.changed(q, [
          teamTopic.name(team.team_key),
          ...(team.published_as_key ? [rosterTopic.name(team.published_as_key)] : []),
        ]);
      });
      return readPrivacy(db, req.params.teamKey);
    },
  );
}
