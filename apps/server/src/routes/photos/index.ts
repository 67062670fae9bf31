import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusals } from '@sagan/shared/http';
import { keySchema } from '@sagan/shared/keys';
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

  app.get(
    '/teams/:teamKey/players/:playerKey/photo',
    {
      schema: {
        tags: ['teamsheets'],
        summary: "A player's photo, for the sheet's owner (JPEG; revalidated on each use)",
        params: existingPlayerParams,
        response: refusals,
      },
    },
    async (req, reply) => {
      const { teamKey, playerKey } = req.params;
      const photoId = await photoForSheetOwner(db, requireUser(req), teamKey, playerKey);
      return sendPhoto(req, reply, store, photoId, 'private');
    },
  );

  app.get(
    '/rosters/:publishedAsKey/players/:playerKey/photo',
    {
      schema: {
        tags: ['teamsheets'],
        summary:
          "A player's photo on a published sheet (public while the sheet is published, shows " +
          'photos and lists the player; revalidated on each use)',
        params: publishedKeyParams.extend({ playerKey: keySchema }),
      },
    },
    async (req, reply) => {
      const { publishedAsKey, playerKey } = req.params;
      const photoId = await photoOnPublishedSheet(db, publishedAsKey, playerKey);
      return sendPhoto(req, reply, store, photoId, 'public');
    },
  );

  app.get(
    '/playcounts/:gameKey/players/:playerKey/photo',
    {
      schema: {
        tags: ['playcounts'],
        summary:
          "A player's photo in one of my play counts or one I co-score (revalidated on each use)",
        params: playCountGameKeyParamsSchema.extend({ playerKey: keySchema }),
        response: refusals,
      },
    },
    async (req, reply) => {
      const { gameKey, playerKey } = req.params;
      const photoId = await photoForPlayCountScorer(db, requireUser(req), gameKey, playerKey);
      return sendPhoto(req, reply, store, photoId, 'private');
    },
  );

  app.get(
    '/playcount-shares/:shareKey/players/:playerKey/photo',
    {
      schema: {
        tags: ['playcounts'],
        summary: "A player's photo through a shared link (while shared, and photos not hidden)",
        params: z.object({ shareKey: keySchema, playerKey: keySchema }),
      },
    },
    async (req, reply) => {
      const { shareKey, playerKey } = req.params;
      return sendPhoto(
        req,
        reply,
        store,
        await photoThroughShare(db, shareKey, playerKey),
        'public',
      );
    },
  );
}
