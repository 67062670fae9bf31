import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, refusals } from '@sagan/shared/http';
import {
  publicRosterResponseSchema,
  publishedKeyParams,
  publishResultSchema,
  teamKeyParams,
} from '@sagan/shared/teamsheet-schemas';
import { publicSheetPath } from '@sagan/shared/roster-view';
import { requireUser } from '../../plugins/auth.ts';
import { notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';
import { sendQrPng } from '../../lib/qr.ts';
import { requestOrigin } from '../../lib/hosts.ts';
import {
  deleteRoster,
  followRoster,
  followsRoster,
  loadPublicRoster,
  loadRoster,
  markPublished,
  publicCopy,
  rosterExists,
  saveRoster,
  unfollowRoster,
} from './repo.ts';
import { sheetOwnerGuard } from './policy.ts';
import { audienceOf } from './topics.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { writeChange } from '../../lib/write.ts';
import { followSheetPublishedOnGames } from '../scoreboards/public.ts';

export function publishRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app;
  const declare = signedInRoutes(app, 'teamsheets');

  /** DESIGN §6: PUBLIC_URL when set, otherwise the origin the request was addressed to. */
  function publicUrl(req: FastifyRequest, publishedAsKey: string): string {
    const origin = requestOrigin(req, config.publicUrl);
    return `${origin}${publicSheetPath(publishedAsKey)}`;
  }

  app.post(
    '/teams/:teamKey/publish',
    declare.write(
      'Publish: copy the sheet to the public rosters area (SPEC §4; the key is reused)',
      { params: teamKeyParams },
      { 200: publishResultSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      const publishedAsKey = await writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          // SPEC §4: a key is assigned once and reused, so printed QR codes keep working.
          const key = team.published_as_key ?? newKey();
          await markPublished(q, team.team_key, key);
          await saveRoster(q, key, team.team_key, user.uid, await publicCopy(q, team, key));
          return {
            answer: key,
            touched: [
              ...audienceOf({ teamKey: team.team_key, publishedAsKey: key }),
              // The games linked to the sheet name its players on their public boards now.
              ...(await followSheetPublishedOnGames(q, team.team_key, true)),
            ],
          };
        },
      });
      return { publishedAsKey, url: publicUrl(req, publishedAsKey) };
    },
  );

  app.delete(
    '/teams/:teamKey/publish',
    declare.write(
      'Unpublish: the public link then shows not-found (a later publish reuses it)',
      { params: teamKeyParams },
      { 200: okSchema },
    ),
    async (req) => {
      return writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          const answer = { ok: true as const };
          if (!team.published_as_key) return { answer, touched: [] };
          await deleteRoster(q, team.team_key);
          const { published_as_key: publishedAsKey } = team;
          return {
            answer,
            touched: [
              ...audienceOf({ teamKey: team.team_key, publishedAsKey }),
              // ...and no longer name them on the public boards of the games linked to it.
              ...(await followSheetPublishedOnGames(q, team.team_key, false)),
            ],
          };
        },
      });
    },
  );

  app.get(
    '/rosters/:publishedAsKey',
    {
      schema: {
        tags: ['teamsheets'],
        summary: 'A published team sheet (public)',
        params: publishedKeyParams,
        response: { 200: publicRosterResponseSchema },
      },
    },
    async (req, reply) => {
      // Children's names: public by link, never in search engines.
      reply.header('x-robots-tag', 'noindex');
      const sheet = await loadPublicRoster(db, req.params.publishedAsKey);
      if (!sheet) throw notFound('Team sheet not found');
      let followed: boolean | null = null;
      if (req.user) {
        followed = await followsRoster(db, req.user.uid, req.params.publishedAsKey);
      }
      return { ...sheet, followed };
    },
  );

  app.get(
    '/rosters/:publishedAsKey/qr.png',
    {
      schema: {
        tags: ['teamsheets'],
        summary: 'QR code (PNG) of the public link (SPEC §9: error correction H, margin 3)',
        params: publishedKeyParams,
      },
    },
    async (req, reply) => {
      if (!(await rosterExists(db, req.params.publishedAsKey))) {
        throw notFound('Team sheet not found');
      }
      return sendQrPng(reply, publicUrl(req, req.params.publishedAsKey));
    },
  );

  app.put(
    '/me/favorite-rosters/:publishedAsKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Follow a published team sheet',
        params: publishedKeyParams,
        response: { 200: okSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const sheet = await loadRoster(db, req.params.publishedAsKey);
      if (!sheet) throw notFound('Team sheet not found');
      // No realtime topic serves a user's followed sheets (the list page reads them over HTTP),
      // so there is nothing to announce.
      await followRoster(db, user.uid, req.params.publishedAsKey, sheet.teamName);
      return { ok: true as const };
    },
  );

  app.delete(
    '/me/favorite-rosters/:publishedAsKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Stop following a team sheet',
        params: publishedKeyParams,
        response: { 200: okSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await unfollowRoster(db, user.uid, req.params.publishedAsKey);
      return { ok: true as const };
    },
  );
}
