import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusals } from '@sagan/shared/http';
import { keySchema } from '@sagan/shared/keys';
import { photoQuerySchema } from '@sagan/shared/photo-query';
import { playCountGameKeyParamsSchema } from '@sagan/shared/playcount';
import { existingPlayerParams, publishedKeyParams } from '@sagan/shared/teamsheet-schemas';
import { requireUser } from '../../plugins/auth.ts';
import {
  photoForPlayCountScorer,
  photoForSheetOwner,
  photoOnPublishedSheet,
  photoThroughShare,
} from './policy.ts';
import { sendPhoto } from './send.ts';

// DESIGN §9 Photos: every photo is served through the sheet, published sheet, play count or
// share link it appears on, checked against that thing as it is now (policy.ts), so revoking
// a photo takes effect at once. The photos arrive with a team sheet's player (teamsheets/).
export default async function photosRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, photoStore: store } = app;

  app.addHook('onReady', async () => {
    await store.sweep(db, app.log).catch((err: unknown) => {
      app.log.warn({ err }, 'photos: the start-up sweep failed');
    });
  });

  /**
   * One photo route: `find` answers the photo the asker may see there (null: a 404), sent as
   * `visibility` says; a private one is for a signed-in owner or scorer, so it may also refuse.
   * `?w=` asks for a rendition sized for the screen, found and answered the same way.
   */
  const photoRoute = <P extends z.ZodType<Record<string, string>>>(
    url: string,
    route: { tag: string; summary: string; params: P; visibility: 'private' | 'public' },
    find: (params: z.infer<P>, req: FastifyRequest) => Promise<string | null>,
  ) =>
    app.get(
      url,
      {
        schema: {
          tags: [route.tag],
          summary: route.summary,
          params: route.params,
          querystring: photoQuerySchema,
          ...(route.visibility === 'private' ? { response: refusals } : {}),
        },
      },
      async (req, reply) =>
        sendPhoto(
          req,
          reply,
          store,
          await find(req.params as z.infer<P>, req),
          route.visibility,
          req.query.w,
        ),
    );

  photoRoute(
    '/teams/:teamKey/players/:playerKey/photo',
    {
      tag: 'teamsheets',
      summary: "A player's photo, for the sheet's owner (JPEG; revalidated on each use)",
      params: existingPlayerParams,
      visibility: 'private',
    },
    (p, req) => photoForSheetOwner(db, requireUser(req), p.teamKey, p.playerKey),
  );

  photoRoute(
    '/rosters/:publishedAsKey/players/:playerKey/photo',
    {
      tag: 'teamsheets',
      summary:
        "A player's photo on a published sheet (public while the sheet is published, shows " +
        'photos and lists the player; revalidated on each use)',
      params: publishedKeyParams.extend({ playerKey: keySchema }),
      visibility: 'public',
    },
    (p) => photoOnPublishedSheet(db, p.publishedAsKey, p.playerKey),
  );

  photoRoute(
    '/playcounts/:gameKey/players/:playerKey/photo',
    {
      tag: 'playcounts',
      summary:
        "A player's photo in one of my play counts or one I co-score (revalidated on each use)",
      params: playCountGameKeyParamsSchema.extend({ playerKey: keySchema }),
      visibility: 'private',
    },
    (p, req) => photoForPlayCountScorer(db, requireUser(req), p.gameKey, p.playerKey),
  );

  photoRoute(
    '/playcount-shares/:shareKey/players/:playerKey/photo',
    {
      tag: 'playcounts',
      summary: "A player's photo through a shared link (while shared, and photos not hidden)",
      params: z.object({ shareKey: keySchema, playerKey: keySchema }),
      visibility: 'public',
    },
    (p) => photoThroughShare(db, p.shareKey, p.playerKey),
  );
}
