import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import { z } from 'zod';
import {
  clockSchema,
  gameCommentInputSchema,
  gameTagsInputSchema,
  scoreboardPatchSchema,
} from '@sagan/shared/scoreboard';
import { gameKeyParamsSchema, scorekeeperMessagesSchema } from '@sagan/shared/scoreboard-views';
import { requireUser } from '../../plugins/auth.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import {
  addComment,
  createGame,
  findGame,
  listScorekeeperMessages,
  patchGame,
  postClock,
  setTags,
} from './repo.ts';
import { writeLimit } from '../../lib/write-limits.ts';

const tags = ['scorekeeping'];

/** DESIGN §6: the scorekeeping API the phone app uses. Only the game's owner writes. */
export default async function scorekeepingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/games',
    {
      config: writeLimit(app.config.rateLimitFactor, 'create'),
      schema: {
        tags,
        summary: 'Create a game; the body may carry initial scoreboard fields',
        body: scoreboardPatchSchema.nullish(),
        response: { 200: z.object({ gameKey: z.string() }), ...refusalsWithBadRequest },
      },
    },
    async (req) => createGame(app, requireUser(req).uid, req.body ?? {}),
  );

  app.patch(
    '/games/:gameKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'score'),
      schema: {
        tags,
        summary: 'Update any scoreboard fields; the server sets timeStamp',
        params: gameKeyParamsSchema,
        body: scoreboardPatchSchema,
        response: { 200: z.object({ timeStamp: z.number() }), ...refusalsWithBadRequest },
      },
    },
    async (req) => patchGame(app, requireUser(req).uid, req.params.gameKey, req.body),
  );

  app.post(
    '/games/:gameKey/clock',
    {
      config: writeLimit(app.config.rateLimitFactor, 'clock'),
      schema: {
        tags,
        summary: 'A clock tick, sent live to viewers on clock:{gameKey}',
        params: gameKeyParamsSchema,
        body: clockSchema,
        response: { 200: okSchema, ...refusalsWithBadRequest },
      },
    },
    async (req) => {
      await postClock(app, requireUser(req).uid, req.params.gameKey, req.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/games/:gameKey/comments',
    {
      config: writeLimit(app.config.rateLimitFactor, 'comment'),
      schema: {
        tags,
        summary: 'Add a game comment',
        params: gameKeyParamsSchema,
        body: gameCommentInputSchema,
        response: { 200: z.object({ id: z.string() }), ...refusalsWithBadRequest },
      },
    },
    async (req) => addComment(app, requireUser(req).uid, req.params.gameKey, req.body),
  );

  app.put(
    '/games/:gameKey/tags',
    {
      config: writeLimit(app.config.rateLimitFactor, 'tags'),
      schema: {
        tags,
        summary: "Replace the game's tags; a tag is created on first use (case-insensitive)",
        params: gameKeyParamsSchema,
        body: gameTagsInputSchema,
        response: {
          200: z.object({ tags: z.array(z.object({ key: z.string(), name: z.string() })) }),
          ...refusalsWithBadRequest,
        },
      },
    },
    async (req) => setTags(app, requireUser(req).uid, req.params.gameKey, req.body.tags),
  );

  app.get(
    '/games/:gameKey/messages',
    {
      schema: {
        tags,
        summary: 'The messages viewers sent the scorekeeper (owner only), newest first',
        params: gameKeyParamsSchema,
        response: { 200: scorekeeperMessagesSchema, ...refusalsWithBadRequest },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const game = await findGame(app.db, req.params.gameKey);
      if (!game) throw notFound('No game with this key');
      if (game.uid !== uid) throw forbidden();
      return { messages: await listScorekeeperMessages(app.db, req.params.gameKey) };
    },
  );
}
