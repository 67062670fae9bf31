import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { writeChange } from '../../lib/write.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { createFromTeam, lockCount, recordSnap, undoSnap, type LockedCount } from './repo.ts';
import {
  originOf,
  writeNamedEvent,
  type EventLog,
  type EventOrigin,
} from '../../lib/game-write.ts';
import { roleOn, type GameRole } from '../../lib/game-guard.ts';
import { audienceOf } from './topics.ts';
import { NOT_FOUND } from './policy.ts';
import { ownedTeam } from '../teamsheets/public.ts';
import { eventMeta } from './events.ts';
import { SNAP_BODY_BYTES } from '../../lib/body-limits.ts';

/**
 * A count's log for the write helper: its owner and its co-scorers snap and undo (DESIGN §10);
 * anyone else's request answers 404 like a count that does not exist.
 */
const countLog: EventLog<LockedCount, GameRole> = {
  table: 'playcount_events',
  missing: NOT_FOUND,
  lock: lockCount,
  guard: async (q, gameKey, row, uid) => {
    const role = await roleOn(q, 'playcount', gameKey, row.uid, uid);
    if (!role) throw notFound(NOT_FOUND);
    return role;
  },
};

/** Who writes, under which key, from which kind of device ('app': the Bearer API). */
const originOfCount = (req: FastifyRequest, uid: string): EventOrigin => ({
  ...originOf(req, uid),
  device: req.viaBearer ? 'app' : 'web',
});
const FINISHED = 'This play count is finished: take it up again to count more';

/**
 * The sideline play counter: a count started from a team sheet, and snaps appended one per
 * request (the phone app's whole-game PUT stays as it is). Snaps and undo: the owner and the
 * count's co-scorers; anyone else's request answers 404 as for a count that does not exist. Every write is idempotent under an
 * `Idempotency-Key`, so the web outbox's retries never count a snap twice: snaps and undos
 * through the event-log writer (the event row keeps the key's answer), a new count (which has
 * no row to lock yet) through the one write helper.
 */
export function sidelineRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
      const made = await writeChange(app, req, {
        // Anyone signed in starts counts, from a team sheet of their own.
        guard: (q) => ownedTeam(q, user, req.body.teamKey),
        write: async (q, { uid }) => {
          const created = await createFromTeam(q, eventMeta(req, uid), newKey(), req.body);
          if (!created) throw notFound('Team sheet not found');
          const { gameKey } = created;
          return {
            ...audienceOf({ kind: 'listed', uid, gameKey, shareKey: null }),
            answer: { gameKey },
          };
        },
      });
      return reply.code(201).send(made);
    },
  );

  app.post(
    '/playcounts/:gameKey/snaps',
    {
      bodyLimit: SNAP_BODY_BYTES,
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
      const origin = originOfCount(req, user.uid);
      const result = await writeNamedEvent(
        app,
        countLog,
        gameKey,
        origin,
        'score',
        async (row, _, q, id) => {
          const done = await recordSnap(q, row, origin, id, req.body);
          if (done === 'finished') throw new HttpError(409, FINISHED);
          if (done === 'full')
            throw new HttpError(409, 'This play count holds as many snaps as it can');
          if (done === 'unknown-player')
            throw badRequest('A player in the snap is not in this count');
          const change = { kind: 'counted' as const, uid: row.uid, gameKey, change: done.change };
          return { ...audienceOf(change), answer: done.answer };
        },
      );
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
      const origin = originOfCount(req, user.uid);
      return writeNamedEvent(app, countLog, gameKey, origin, 'score', async (row, _, q, id) => {
        const done = await undoSnap(q, row, origin, id);
        if (done === 'finished') throw new HttpError(409, FINISHED);
        if (!done.change) return { touched: [], answer: done.answer };
        const change = { kind: 'counted' as const, uid: row.uid, gameKey, change: done.change };
        return { ...audienceOf(change), answer: done.answer };
      });
    },
  );
}
