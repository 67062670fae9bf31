import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { findGame } from './repo.ts';
import { addComment, createGame, patchGame, postClock, setTags } from './service.ts';
import { writeLimit } from '../../lib/write-limits.ts';

const errorSchema = z.object({ error: z.string() });
const refusals = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
const security: Record<string, string[]>[] = [{ googleIdToken: [] }, { session: [] }];
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
        security,
        summary: 'Create a game; the body may carry initial scoreboard fields',
        body: scoreboardPatchSchema.nullish(),
        response: { 200: z.object({ gameKey: z.string() }), ...refusals },
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
        security,
        summary: 'Update any scoreboard fields; the server sets timeStamp',
        params: gameKeyParamsSchema,
        body: scoreboardPatchSchema,
        response: { 200: z.object({ timeStamp: z.number() }), ...refusals },
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
        security,
        summary: 'A clock tick, sent live to viewers on clock:{gameKey}',
        params: gameKeyParamsSchema,
        body: clockSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...refusals },
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
        security,
        summary: 'Add a game comment',
        params: gameKeyParamsSchema,
        body: gameCommentInputSchema,
        response: { 200: z.object({ id: z.string() }), ...refusals },
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
        security,
        summary: "Replace the game's tags; a tag is created on first use (case-insensitive)",
        params: gameKeyParamsSchema,
        body: gameTagsInputSchema,
        response: {
          200: z.object({ tags: z.array(z.object({ key: z.string(), name: z.string() })) }),
          ...refusals,
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
        security,
        summary: 'The messages viewers sent the scorekeeper (owner only), newest first',
        params: gameKeyParamsSchema,
        response: { 200: scorekeeperMessagesSchema, ...refusals },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const game = await findGame(app.db, req.params.gameKey);
      if (!game) throw notFound('No game with this key');
      if (game.uid !== uid) throw forbidden();
      const rows = await app.db.query<{
        id: number | string;
        display_name: string | null;
        message: string;
        created_at: Date | string;
      }>(
        `SELECT m.id, u.display_name, m.message, m.created_at
         FROM scorekeeper_messages m JOIN users u ON u.uid = m.from_uid
         WHERE m.game_key = $1 ORDER BY m.id DESC LIMIT 200`,
        [req.params.gameKey],
      );
      return {
        messages: rows.map((r) => ({
          id: String(r.id),
          fromName: r.display_name,
          message: r.message,
          createdAt: new Date(r.created_at).getTime(),
        })),
      };
    },
  );
}
