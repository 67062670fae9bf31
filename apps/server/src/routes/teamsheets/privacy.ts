import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { teamKeyParams } from '@sagan/shared/teamsheet-schemas';
import { publicPrivacyInputSchema, publicPrivacySchema } from '@sagan/shared/teamsheet-privacy';
import { requireUser } from '../../plugins/auth.ts';
import { readPrivacy, touchTeam, writePrivacy } from './repo.ts';
import { ownedTeam, sheetOwnerGuard } from './policy.ts';
import { audienceOf } from './topics.ts';
import { writeChange } from '../../lib/write.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { followSheetPrivacy } from '../playcounts/public.ts';
import { followSheetPrivacyOnGames } from '../scoreboards/public.ts';

// Children's privacy: the owner's choice of what the public sheet shows.
export function privacyRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const declare = signedInRoutes(app, 'teamsheets');

  app.get(
    '/teams/:teamKey/privacy',
    declare.read(
      'What the public sheet shows: initials instead of names, photos or notes hidden',
      { params: teamKeyParams },
      { 200: publicPrivacySchema },
    ),
    async (req) => {
      const user = requireUser(req);
      await ownedTeam(db, user, req.params.teamKey);
      return readPrivacy(db, req.params.teamKey);
    },
  );

  app.put(
    '/teams/:teamKey/privacy',
    declare.write(
      'Choose what the public sheet shows (applies at once, no republish needed)',
      { params: teamKeyParams, body: publicPrivacyInputSchema },
      { 200: publicPrivacySchema },
    ),
    async (req) => {
      return writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          await writePrivacy(q, team.team_key, req.body);
          const touched = [
            // An open public page re-renders without the names, photos or notes right away.
            ...audienceOf(await touchTeam(q, team.team_key)),
            // The team's play counts keep their own copy of the option, following it while the
            // sheet exists; their shared links' open viewers reload with it.
            ...(await followSheetPrivacy(q, team.team_key, req.body)),
            // So do the games linked to it: their box scores' names.
            ...(await followSheetPrivacyOnGames(q, team.team_key, req.body.initialsOnly)),
          ];
          return { answer: await readPrivacy(q, team.team_key), touched };
        },
      });
    },
  );
}
