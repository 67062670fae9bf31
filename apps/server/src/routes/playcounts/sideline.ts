import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { playCountGameKeyParamsSchema } from '@sagan/shared/playcount';
import {
  newPlayCountResultSchema,
  newPlayCountSchema,
  snapInputSchema,
  snapResultSchema,
} from '@sagan/shared/playcount-sideline';
import { requireUser } from '../../plugins/auth.ts';
import { badRequest, HttpError, notFound } from '../../lib/http-errors.ts';
import { newKey } from '../../lib/keys.ts';
import { writeOnce } from '../../lib/idempotency.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { createFromTeam, recordSnap, undoSnap } from './repo.ts';
import { changedTopics, notifyChange } from './topics.ts';
import { eventMeta } from './events.ts';

const NOT_FOUND = 'Play count not found';
const FINISHED = 'This play count is finished: take it up again to count more';

/**
 * The sideline play counter: a count started from a team sheet, and snaps appended one per
 * request (the phone app's whole-game PUT stays as it is). Snaps and undo: the owner and the
 * count's co-scorers (DESIGN §10); anyone else's request answers 404 as for a count that does
 * not exist. Every write is idempotent under an
 * `Idempotency-Key`, so the web outbox's retries never count a snap twice.
 */
export function sidelineRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;

  app.post(
    '/playcounts',
    {
      config: writeLimit(app.config.rateLimitFactor, 'create'),
      schema: {
        tags: ['playcounts'],
        headers: idempotentHeadersSchema,
        summary: 'Start a play count from one of my team sheets (its roster is copied)',
        body: newPlayCountSchema,
        response: { 201: newPlayCountResultSchema, ...refusalsWithBadRequest, 422: errorSchema },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const game = await writeOnce(db, req, async (q) => {
        const created = await createFromTeam(q, eventMeta(req, user.uid), newKey(), req.body);
        if (created) await hub.changed(q, changedTopics(user.uid, created.gameKey, null));
        return created;
      });
      if (!game) throw notFound('Team sheet not found');
      return reply.code(201).send({ gameKey: game.gameKey });
    },
  );

  app.post(
    '/playcounts/:gameKey/snaps',
    {
      config: writeLimit(app.config.rateLimitFactor, 'score'),
      schema: {
        tags: ['playcounts'],
        headers: idempotentHeadersSchema,
        summary: 'Record one snap for the players on the field (numbered after the last one)',
        params: playCountGameKeyParamsSchema,
        body: snapInputSchema,
        response: {
          201: snapResultSchema,
          ...refusalsWithBadRequest,
          409: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { gameKey } = req.params;
      const result = await writeOnce(db, req, async (q) => {
        const done = await recordSnap(q, eventMeta(req, user.uid), gameKey, req.body);
        if (done === 'not-found') throw notFound(NOT_FOUND);
        if (done === 'finished') throw new HttpError(409, FINISHED);
        if (done === 'full')
          throw new HttpError(409, 'This play count holds as many snaps as it can');
        if (done === 'unknown-player')
          throw badRequest('A player in the snap is not in this count');
        await notifyChange(hub, q, done.owner, gameKey, done.change);
        return { snapCount: done.snapCount, snaps: done.snaps };
      });
      return reply.code(201).send(result);
    },
  );

  app.delete(
    '/playcounts/:gameKey/snaps/last',
    {
      config: writeLimit(app.config.rateLimitFactor, 'score'),
      schema: {
        tags: ['playcounts'],
        headers: idempotentHeadersSchema,
        summary: 'Undo the last snap (its players lose the play it gave them)',
        description:
          'Send an Idempotency-Key: a retried undo then replays its first answer instead of ' +
          'removing another snap. snapCount is null when there was no snap to undo.',
        params: playCountGameKeyParamsSchema,
        response: {
          200: snapResultSchema,
          ...refusalsWithBadRequest,
          409: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { gameKey } = req.params;
      return writeOnce(db, req, async (q) => {
        const done = await undoSnap(q, eventMeta(req, user.uid), gameKey);
        if (done === 'not-found') throw notFound(NOT_FOUND);
        if (done === 'finished') throw new HttpError(409, FINISHED);
        if (done.change) await notifyChange(hub, q, done.owner, gameKey, done.change);
        return { snapCount: done.snapCount, snaps: done.snaps };
      });
    },
  );
}
