import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, okSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import { z } from 'zod';
import { clockControlSchema, gameClockStateSchema } from '@sagan/shared/game-clock';
import {
  eventRefusalSchema,
  gameEventAnswerSchema,
  gameEventInputSchema,
} from '@sagan/shared/game-events';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import {
  clockSchema,
  gameCommentInputSchema,
  gameTagsInputSchema,
  newGameSchema,
  scoreboardWriteSchema,
} from '@sagan/shared/scoreboard';
import {
  gameKeyParamsSchema,
  messageParamsSchema,
  messageReadSchema,
  scorekeeperMessagesSchema,
  staleWriteSchema,
} from '@sagan/shared/scoreboard-views';
import { requireUser } from '../../plugins/auth.ts';
import { originOf } from '../../lib/game-write.ts';
import { writeChange } from '../../lib/write.ts';
import { listScorekeeperMessages, patchGame, recordAction } from './repo.ts';
import { ownedGame } from './policy.ts';
import {
  clockControlChange,
  clockTickChange,
  commentChange,
  createGameChange,
  deleteGameChange,
  messageReadChange,
  tagsChange,
} from './writes.ts';
import { writeLimit } from '../../lib/write-limits.ts';

const tags = ['scorekeeping'];

/** The answers of an idempotent owner-only write besides its 200. */
const writeRefusals = { ...refusalsWithBadRequest, 422: errorSchema } as const;
const seq = z.number().int().nonnegative();

/**
 * DESIGN §6: the scorekeeping API the phone app (and the web scorekeeper) uses. Only the
 * game's owner writes. Every write takes an Idempotency-Key (DESIGN §9, lib/idempotency.ts)
 * and answers the new seq of the topic it changed.
 */
export default async function scorekeepingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/games',
    {
      config: writeLimit(app.config.rateLimitFactor, 'create'),
      schema: {
        tags,
        summary:
          'Create a game; the body may carry initial scoreboard fields, and startsAt (ms) for ' +
          'a game scheduled ahead',
        headers: idempotentHeadersSchema,
        body: newGameSchema.nullish(),
        response: { 200: z.object({ gameKey: z.string() }), ...writeRefusals },
      },
    },
    async (req) => writeChange(app, req, createGameChange(requireUser(req).uid, req.body ?? {})),
  );

  app.patch(
    '/games/:gameKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'score'),
      schema: {
        tags,
        summary:
          'Update any scoreboard fields; the server sets timeStamp. With baseSeq, 409 when a ' +
          'field it touches changed after that seq',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: scoreboardWriteSchema,
        response: {
          200: z.object({ timeStamp: z.number(), seq }),
          409: staleWriteSchema,
          ...writeRefusals,
        },
      },
    },
    async (req) => {
      const { baseSeq, device, ...patch } = req.body;
      const origin = { ...originOf(req, requireUser(req).uid), device: device ?? null };
      return patchGame(app, origin, req.params.gameKey, patch, baseSeq);
    },
  );

  app.post(
    '/games/:gameKey/events',
    {
      config: writeLimit(app.config.rateLimitFactor, 'score'),
      schema: {
        tags,
        summary:
          "The web scorekeeper's taps, appended to the game's event log: an intent such as " +
          '"home +2" (relative, never refused as stale), undo (voids this device\'s own last ' +
          "event), a void of one event (the owner's, or a scorer's own), or a scorer's decision " +
          'on taps held because they were made in a set that had ended (the first one wins)',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: gameEventInputSchema,
        response: { 200: gameEventAnswerSchema, ...writeRefusals, 409: eventRefusalSchema },
      },
    },
    async (req) => {
      const { action, device, baseSeq, period } = req.body;
      const origin = {
        ...originOf(req, requireUser(req).uid),
        device,
        ...(baseSeq !== undefined ? { baseSeq } : {}),
        ...(period !== undefined ? { period } : {}),
      };
      return recordAction(app, origin, req.params.gameKey, action);
    },
  );

  app.delete(
    '/games/:gameKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags,
        summary:
          'Delete a game with its comments, tags, bookmarks, messages and history; viewers ' +
          'get null',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        response: { 200: okSchema, ...writeRefusals },
      },
    },
    async (req) =>
      writeChange(app, req, deleteGameChange(requireUser(req).uid, req.params.gameKey)),
  );

  app.post(
    '/games/:gameKey/clock',
    {
      config: writeLimit(app.config.rateLimitFactor, 'clock'),
      schema: {
        tags,
        summary:
          "The phone app's clock tick: a stopped clock at these seconds, shown as this text " +
          'on clock:{gameKey}',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: clockSchema,
        response: { 200: okSchema.extend({ seq }), ...writeRefusals },
      },
    },
    async (req) =>
      writeChange(app, req, clockTickChange(requireUser(req).uid, req.params.gameKey, req.body)),
  );

  app.post(
    '/games/:gameKey/clock/control',
    {
      config: writeLimit(app.config.rateLimitFactor, 'clock'),
      schema: {
        tags,
        summary:
          "Start, stop or set the game clock at the server's time; viewers compute the " +
          'running clock from its state',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: clockControlSchema,
        response: {
          200: z.object({ clock: gameClockStateSchema, serverTime: z.number(), seq }),
          ...writeRefusals,
        },
      },
    },
    async (req) => {
      const change = clockControlChange(requireUser(req).uid, req.params.gameKey, req.body);
      return writeChange(app, req, change);
    },
  );

  app.post(
    '/games/:gameKey/comments',
    {
      config: writeLimit(app.config.rateLimitFactor, 'comment'),
      schema: {
        tags,
        summary: 'Add a game comment',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: gameCommentInputSchema,
        response: { 200: z.object({ id: z.string(), seq }), ...writeRefusals },
      },
    },
    async (req) =>
      writeChange(app, req, commentChange(requireUser(req).uid, req.params.gameKey, req.body)),
  );

  app.put(
    '/games/:gameKey/tags',
    {
      config: writeLimit(app.config.rateLimitFactor, 'tags'),
      schema: {
        tags,
        summary: "Replace the game's tags; a tag is created on first use (case-insensitive)",
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: gameTagsInputSchema,
        response: {
          200: z.object({ tags: z.array(z.object({ key: z.string(), name: z.string() })), seq }),
          ...writeRefusals,
        },
      },
    },
    async (req) =>
      writeChange(app, req, tagsChange(requireUser(req).uid, req.params.gameKey, req.body.tags)),
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
      await ownedGame(app.db, requireUser(req).uid, req.params.gameKey);
      return { messages: await listScorekeeperMessages(app.db, req.params.gameKey) };
    },
  );

  app.patch(
    '/games/:gameKey/messages/:messageId',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags,
        summary: 'Mark a message to the scorekeeper read, or unread again (owner only)',
        headers: idempotentHeadersSchema,
        params: messageParamsSchema,
        body: messageReadSchema,
        response: { 200: z.object({ id: z.string(), read: z.boolean() }), ...writeRefusals },
      },
    },
    async (req) => {
      const { gameKey, messageId } = req.params;
      const change = messageReadChange(requireUser(req).uid, gameKey, messageId, req.body.read);
      return writeChange(app, req, change);
    },
  );
}
