import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, refusals } from '@sagan/shared/http';
import {
  playCountGameInputSchema,
  playCountGameKeyParamsSchema,
  playCountGameSchema,
  playCountListSchema,
  playCountPatchSchema,
} from '@sagan/shared/playcount';
import { requireUser } from '../../plugins/auth.ts';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import { findOwnGame, findScoredGame, listGames, patchGame, putGame } from './repo.ts';
import { audienceOf, registerPlayCountTopics } from './topics.ts';
import { mayPutCount, NOT_FOUND, ownedCount } from './policy.ts';
import { writeChange } from '../../lib/write.ts';
import { eventMeta } from './events.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { PLAY_COUNT_BODY_BYTES } from '../../lib/body-limits.ts';
import { sidelineRoutes } from './sideline.ts';
import { shareRoutes } from './share.ts';

// SPEC §2/§6 play counts and DESIGN §6 Player Counter API. Private: owner only, everywhere.
// A game of another user answers 404 on reads and PATCH (its existence is not revealed);
// PUT answers 403 as the contract says, since the phone must learn its key is taken.
export default async function playcountsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const declare = signedInRoutes(app, 'playcounts');
  registerPlayCountTopics(fastify);
  sidelineRoutes(fastify);
  shareRoutes(fastify);

  app.get(
    '/playcounts',
    {
      schema: {
        tags: ['playcounts'],
        summary: 'My play counts, newest activity first, each with its archived flag',
        response: { 200: playCountListSchema, 401: errorSchema },
      },
    },
    async (req) => {
      const user = requireUser(req);
      return { games: await listGames(db, user.uid) };
    },
  );

  app.get(
    '/playcounts/:gameKey',
    declare.read(
      'One of my play counts, or one I co-score',
      { params: playCountGameKeyParamsSchema },
      { 200: playCountGameSchema },
    ),
    async (req) => {
      const user = requireUser(req);
      const game = await findScoredGame(db, user.uid, req.params.gameKey);
      if (!game) throw notFound(NOT_FOUND);
      return game;
    },
  );

  app.put(
    '/playcounts/:gameKey',
    {
      bodyLimit: PLAY_COUNT_BODY_BYTES,
      config: writeLimit(app.config.rateLimitFactor, 'score'),
      schema: {
        tags: ['playcounts'],
        summary: 'Player Counter: create or replace a whole play-count game',
        description:
          'Creates the game for the caller (201) or replaces it if the caller owns it or ' +
          'co-counts it (200); anyone else is refused (403). A co-counter may count (roster and ' +
          'snaps) but not change the name, date or minimum, nor archive (403). archived: true ' +
          'archives the game; false or omitted keeps the stored flag (Restore is PATCH). ' +
          'minPlays omitted keeps the minimum.',
        params: playCountGameKeyParamsSchema,
        body: playCountGameInputSchema,
        response: { 200: playCountGameSchema, 201: playCountGameSchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { gameKey } = req.params;
      // A whole count replaced: sending it again is harmless, so it is not kept under a key.
      const result = await writeChange(app, null, {
        guard: (q) => mayPutCount(q, user.uid, gameKey),
        write: async (q) => {
          // Checked again under the row's lock: a co-counter may not rename, archive...
          const put = await putGame(q, eventMeta(req, user.uid), gameKey, req.body);
          if (!put) throw forbidden();
          const change = { kind: 'counted' as const, uid: put.owner, gameKey, change: put.change };
          return { ...audienceOf(change), answer: put };
        },
      });
      return reply.code(result.created ? 201 : 200).send(result.game);
    },
  );

  app.patch(
    '/playcounts/:gameKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['playcounts'],
        summary: 'Archive or restore a play count, set its minimum plays per player, or finish it',
        params: playCountGameKeyParamsSchema,
        body: playCountPatchSchema,
        response: { 200: playCountGameSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { gameKey } = req.params;
      const { archived, minPlays, finished } = req.body;
      if (archived === undefined && minPlays === undefined && finished === undefined) {
        throw badRequest('Nothing to change: send archived, minPlays or finished');
      }
      // Sets flags: sending it again is harmless, so it is not kept under a key.
      return writeChange(app, null, {
        guard: (q) => ownedCount(q, user.uid, gameKey),
        write: async (q) => {
          const patched = await patchGame(q, eventMeta(req, user.uid), gameKey, req.body);
          if (!patched) throw notFound(NOT_FOUND);
          const change = { kind: 'counted' as const, uid: user.uid, gameKey, change: patched };
          return { ...audienceOf(change), answer: (await findOwnGame(q, user.uid, gameKey))! };
        },
      });
    },
  );
}
