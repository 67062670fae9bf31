import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { teamTopic } from '@sagan/shared/topics/team';
import { teamKeyParams } from '@sagan/shared/teamsheet-schemas';
import { publicPrivacySchema, type PublicPrivacy } from '@sagan/shared/teamsheet-privacy';
import { requireUser } from '../../plugins/auth.ts';
import { ownedTeam } from './repo.ts';
import { writeLimit } from '../../lib/write-limits.ts';

// Children's privacy: the owner's choice of what the public sheet shows.
export function privacyRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;

  async function read(teamKey: string): Promise<PublicPrivacy> {
    const rows = await db.query<{ public_initials_only: boolean; public_hide_photos: boolean }>(
      'SELECT public_initials_only, public_hide_photos FROM teams WHERE team_key = $1',
      [teamKey],
    );
    return {
      initialsOnly: rows[0]?.public_initials_only === true,
      hidePhotos: rows[0]?.public_hide_photos === true,
    };
  }

  app.get(
    '/teams/:teamKey/privacy',
    {
      schema: {
        tags: ['teamsheets'],
        summary: 'What the public sheet shows: initials instead of names, photos hidden',
        params: teamKeyParams,
        response: { 200: publicPrivacySchema },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await ownedTeam(db, user, req.params.teamKey);
      return read(req.params.teamKey);
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
        response: { 200: publicPrivacySchema },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        await q.query(
          `UPDATE teams SET public_initials_only = $2, public_hide_photos = $3, updated_at = now()
           WHERE team_key = $1`,
          [team.team_key, req.body.initialsOnly, req.body.hidePhotos],
        );
        // An open public page re-renders without the names/photos right away.
        await hub.changed(q, [
          teamTopic.name(team.team_key),
          ...(team.published_as_key ? [rosterTopic.name(team.published_as_key)] : []),
        ]);
      });
      return read(req.params.teamKey);
    },
  );
}
