import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, okSchema, refusals } from '@sagan/shared/http';
import { gameKeyParamsSchema, tagParamsSchema } from '@sagan/shared/scoreboard-views';
import { gameTopic } from '@sagan/shared/topics/game';
import {
  commentIdSchema,
  moderationNoticesSchema,
  moderationQueueSchema,
  noticeParamsSchema,
  reportGameResultSchema,
  reportGameSchema,
} from '@sagan/shared/moderation';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import { requireUser } from '../../plugins/auth.ts';
import { notFound } from '../../lib/http-errors.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import {
  findPublicComment,
  findPublicGame,
  gameAudienceTopics,
  tagAudienceTopics,
} from '../scoreboards/public.ts';
import {
  dismissNotice,
  loadModerationQueue,
  loadNotices,
  moderate,
  moderateComment,
  moderateTag,
  moderateUser,
} from './moderation-repo.ts';

const tags = ['moderation'];

/**
 * Moderation (DESIGN §10): any signed-in viewer reports a game or a comment, once; the
 * operators named in ADMIN_UIDS work the queue and hide or restore games, comments and tags. Everyone else gets the 404 of a path
 * that does not exist for every /admin call, so the queue's existence is not told.
 */
export async function moderationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;
  hub.registerUserList(myNoticesTopic, loadNotices);

  app.get(
    '/me/notices',
    {
      schema: {
        tags,
        summary:
          'What the operators did to my games (hidden, restored), not dismissed yet ' +
          '(topic user:{uid}:notices)',
        response: { 200: moderationNoticesSchema, 401: errorSchema },
      },
    },
    async (req) => loadNotices(db, requireUser(req).uid),
  );

  app.post(
    '/me/notices/:id/seen',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags,
        summary: 'Dismiss one of my notices',
        params: noticeParamsSchema,
        response: { 200: okSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      await db.tx(async (q) => {
        if (!(await dismissNotice(q, uid, req.params.id))) throw notFound('No such notice');
        await hub.changed(q, [myNoticesTopic.name(uid)]);
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/games/:gameKey/report',
    {
      config: writeLimit(app.config.rateLimitFactor, 'report'),
      schema: {
        tags,
        summary: 'Report a game to the operators (signed in; counts once per person)',
        params: gameKeyParamsSchema,
        body: reportGameSchema,
        response: { 200: reportGameResultSchema, 400: errorSchema, ...refusals },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const { gameKey } = req.params;
      return db.tx(async (q) => {
        if (!(await findPublicGame(q, gameKey))) throw notFound('No game with this key');
        const added = await q.query(
          `INSERT INTO moderation_reports (game_key, uid, reason) VALUES ($1, $2, $3)
           ON CONFLICT (game_key, uid) DO NOTHING RETURNING 1`,
          [gameKey, uid, req.body.reason],
        );
        return { ok: true as const, alreadyReported: added.length === 0 };
      });
    },
  );

  app.post(
    '/games/:gameKey/comments/:commentId/report',
    {
      config: writeLimit(app.config.rateLimitFactor, 'report'),
      schema: {
        tags,
        summary: "Report a game's comment to the operators (signed in; counts once per person)",
        params: gameKeyParamsSchema.extend({ commentId: commentIdSchema }),
        body: reportGameSchema,
        response: { 200: reportGameResultSchema, 400: errorSchema, ...refusals },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const { gameKey, commentId } = req.params;
      return db.tx(async (q) => {
        if (!(await findPublicComment(q, gameKey, commentId))) {
          throw notFound('No comment with this id');
        }
        const added = await q.query(
          `INSERT INTO moderation_comment_reports (comment_id, uid, reason) VALUES ($1, $2, $3)
           ON CONFLICT (comment_id, uid) DO NOTHING RETURNING 1`,
          [commentId, uid, req.body.reason],
        );
        return { ok: true as const, alreadyReported: added.length === 0 };
      });
    },
  );

  await app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    // Before the body is read and before any other check says more than "not found".
    admin.addHook('onRequest', async (req) => {
      if (!req.user || !app.config.adminUids.includes(req.user.uid)) throw notFound();
    });

    api.get(
      '/admin/reports',
      {
        schema: {
          tags,
          summary: "The operators' queue: reported games, hidden games, the latest actions",
          response: { 200: moderationQueueSchema, 404: errorSchema },
        },
      },
      async () => loadModerationQueue(db),
    );

    const action = z.object({ action: z.enum(['hide', 'unhide', 'dismiss']) });
    api.post(
      '/admin/games/:gameKey/:action',
      {
        // The hook above has already refused anyone but an operator.
        config: { anonymousWrites: true },
        schema: {
          tags,
          summary:
            'Hide a game from every public surface, restore it, or dismiss its reports ' +
            '(operators only; logged with who and when)',
          params: gameKeyParamsSchema.extend(action.shape),
          response: { 200: okSchema, 404: errorSchema },
        },
      },
      async (req) => {
        const { uid } = requireUser(req);
        const { gameKey } = req.params;
        await db.tx(async (q) => {
          const owner = await moderate(q, uid, gameKey, req.params.action);
          // Every list, tag count and viewer that shows the game follows at once, and the
          // owner is told.
          await hub.changed(q, [
            ...(await gameAudienceTopics(q, gameKey, owner)),
            myNoticesTopic.name(owner),
          ]);
        });
        return { ok: true as const };
      },
    );

    api.post(
      '/admin/comments/:commentId/:action',
      {
        config: { anonymousWrites: true },
        schema: {
          tags,
          summary:
            "Hide a game's comment from every public surface, restore it, or dismiss its " +
            'reports (operators only; logged with who and when)',
          params: z.object({ commentId: commentIdSchema, ...action.shape }),
          response: { 200: okSchema, 404: errorSchema },
        },
      },
      async (req) => {
        const { uid } = requireUser(req);
        await db.tx(async (q) => {
          const { gameKey, ownerUid } = await moderateComment(
            q,
            uid,
            req.params.commentId,
            req.params.action,
          );
          // The game's page (public and scorers' view alike) follows, and its owner is told.
          await hub.changed(q, [gameTopic.name(gameKey), myNoticesTopic.name(ownerUid)]);
        });
        return { ok: true as const };
      },
    );

    api.post(
      '/admin/users/:uid/:action',
      {
        config: { anonymousWrites: true },
        schema: {
          tags,
          summary:
            'Block a person from public games (their games leave every public surface; they ' +
            'cannot create games) or unblock them (operators only; logged with who and when)',
          params: z.object({
            uid: z.string().min(1).max(128),
            action: z.enum(['block', 'unblock']),
          }),
          response: { 200: okSchema, 404: errorSchema },
        },
      },
      async (req) => {
        const { uid } = requireUser(req);
        const person = req.params.uid;
        await db.tx(async (q) => {
          const games = await moderateUser(q, uid, person, req.params.action);
          const topics = [myNoticesTopic.name(person)];
          for (const gameKey of games)
            topics.push(...(await gameAudienceTopics(q, gameKey, person)));
          await hub.changed(q, [...new Set(topics)]);
        });
        return { ok: true as const };
      },
    );

    api.post(
      '/admin/tags/:tagID/:action',
      {
        config: { anonymousWrites: true },
        schema: {
          tags,
          summary:
            'Hide a tag from every public surface (lists, counts, its page, its games) or ' +
            'restore it (operators only; logged with who and when)',
          params: tagParamsSchema.extend({ action: z.enum(['hide', 'unhide']) }),
          response: { 200: okSchema, 404: errorSchema },
        },
      },
      async (req) => {
        const { uid } = requireUser(req);
        const { tagID } = req.params;
        await db.tx(async (q) => {
          const games = await moderateTag(q, uid, tagID, req.params.action);
          await hub.changed(q, await tagAudienceTopics(q, tagID, games));
        });
        return { ok: true as const };
      },
    );
  });
}
