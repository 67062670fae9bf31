import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, okSchema } from '@sagan/shared/http';
import { keySchema } from '@sagan/shared/keys';
import { playCountGameKeyParamsSchema } from '@sagan/shared/playcount';
import { shareResultSchema, sharedPlayCountSchema } from '@sagan/shared/playcount-sideline';
import { seasonSchema } from '@sagan/shared/playcount-season';
import { requireUser } from '../../plugins/auth.ts';
import { notFound } from '../../lib/http-errors.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { findShared, seasonOf, setShareKey } from './repo.ts';
import { writeChange } from '../../lib/write.ts';
import { ownedCount } from './policy.ts';
import { ownedTeam } from '../teamsheets/public.ts';
import { audienceOf } from './topics.ts';

const shareParams = z.object({ shareKey: keySchema });
const SHARE_NOT_FOUND = 'This play count is not shared';

/**
 * DESIGN §9 shared play-count link: the owner shares a read-only, live view under an
 * unguessable key and may revoke it (open viewers then get null and close). Nothing about a
 * play count is public without that key. Also the owner's season view of a team.
 */
export function shareRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const declare = signedInRoutes(app, 'playcounts');

  const share = (req: FastifyRequest, on: boolean, uid: string, gameKey: string) =>
    writeChange(app, req, {
      guard: (q) => ownedCount(q, uid, gameKey),
      write: async (q) => {
        const keys = await setShareKey(q, uid, gameKey, on);
        if (!keys) throw notFound('Play count not found');
        if (keys.before === keys.after) return { touched: [], answer: keys.after };
        const change = { kind: 'listed' as const, uid, gameKey, shareKey: keys.after };
        return {
          ...audienceOf(keys.before ? { ...change, revoked: keys.before } : change),
          answer: keys.after,
        };
      },
    });

  app.put(
    '/playcounts/:gameKey/share',
    declare.write(
      'Share a read-only live link of my play count (the same key until revoked)',
      { params: playCountGameKeyParamsSchema },
      { 200: shareResultSchema, 422: errorSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      const shareKey = await share(req, true, user.uid, req.params.gameKey);
      return { shareKey: shareKey! };
    },
  );

  app.delete(
    '/playcounts/:gameKey/share',
    declare.write(
      'Revoke the shared link: it answers not-found and open viewers close',
      { params: playCountGameKeyParamsSchema },
      { 200: okSchema, 422: errorSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      await share(req, false, user.uid, req.params.gameKey);
      return { ok: true as const };
    },
  );

  app.get(
    '/playcount-shares/:shareKey',
    {
      schema: {
        tags: ['playcounts'],
        summary: 'A shared play count, read-only, with the team sheet privacy option applied',
        params: shareParams,
        response: { 200: sharedPlayCountSchema, 404: errorSchema },
      },
    },
    async (req, reply) => {
      // Children's names: by link only, never in search engines.
      reply.header('x-robots-tag', 'noindex').header('cache-control', 'no-store');
      const shared = await findShared(db, req.params.shareKey);
      if (!shared) throw notFound(SHARE_NOT_FOUND);
      return shared;
    },
  );

  app.get(
    '/playcount-seasons/:teamKey',
    declare.read(
      "A team's season: plays per player over its play counts, games below minimum",
      { params: z.object({ teamKey: keySchema }) },
      { 200: seasonSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      return seasonOf(db, await ownedTeam(db, user, req.params.teamKey));
    },
  );
}
