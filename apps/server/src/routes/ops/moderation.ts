import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, okSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import type { Queryable } from '../../db/db.ts';
import { gameKeyParamsSchema, tagParamsSchema } from '@sagan/shared/scoreboard-views';
import {
  commentIdSchema,
  moderationNoticesSchema,
  moderationQueueSchema,
  noticeParamsSchema,
  reportGameResultSchema,
  reportGameSchema,
} from '@sagan/shared/moderation';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import { requireUser } from '../../plugins/auth.ts';
import { notFound } from '../../lib/http-errors.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { writeChange } from '../../lib/write.ts';
import {
  addReport,
  dismissNotice,
  loadModerationQueue,
  loadNotices,
  moderate,
  moderateComment,
  moderateTag,
  moderateUser,
  type Reported,
} from './moderation-repo.ts';
import { operatorOf, reportableComment, reportableGame } from './policy.ts';
import { audienceOf, type ModerationChange } from './topics.ts';

const tags = ['moderation'];

/**
 * Moderation (DESIGN §10): any signed-in viewer reports a game or a comment, once; the
 * operators named in ADMIN_UIDS work the queue and hide or restore games, comments and tags. Everyone else gets the 404 of a path
 * that does not exist for every /admin call, so the queue's existence is not told.
 */
export async function moderationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;
  const { adminUids } = app.config;
  const ok = { ok: true as const };
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
        headers: idempotentHeadersSchema,
        params: noticeParamsSchema,
        response: {
          200: okSchema,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      return writeChange(app, req, {
        guard: async () => uid,
        write: async (q) => {
          if (!(await dismissNotice(q, uid, req.params.id))) throw notFound('No such notice');
          return { touched: await audienceOf(q, { kind: 'notice', uid }), answer: ok };
        },
      });
    },
  );

  // A signed-in viewer reports a game or a comment the public sees, counted once per person.
  // The operators' queue is read over HTTP, not live: a report touches no topic.
  const reportOptions = <P extends z.ZodTypeAny>(summary: string, params: P) => ({
    config: writeLimit(app.config.rateLimitFactor, 'report'),
    schema: {
      tags,
      summary,
      headers: idempotentHeadersSchema,
      params,
      body: reportGameSchema,
      response: { 200: reportGameResultSchema, ...refusalsWithBadRequest, 422: errorSchema },
    },
  });
  const report = (
    req: FastifyRequest,
    reportable: (q: Queryable) => Promise<void>,
    what: Reported,
    key: string,
    reason: string,
  ) => {
    const { uid } = requireUser(req);
    return writeChange(app, req, {
      guard: reportable,
      write: async (q) => {
        const added = await addReport(q, what, key, uid, reason);
        return { touched: [], answer: { ok: true as const, alreadyReported: !added } };
      },
    });
  };

  app.post(
    '/games/:gameKey/report',
    reportOptions(
      'Report a game to the operators (signed in; counts once per person)',
      gameKeyParamsSchema,
    ),
    async (req) => {
      const { gameKey } = req.params;
      return report(req, (q) => reportableGame(q, gameKey), 'game', gameKey, req.body.reason);
    },
  );

  app.post(
    '/games/:gameKey/comments/:commentId/report',
    reportOptions(
      "Report a game's comment to the operators (signed in; counts once per person)",
      gameKeyParamsSchema.extend({ commentId: commentIdSchema }),
    ),
    async (req) => {
      const { gameKey, commentId } = req.params;
      const reportable = (q: Queryable) => reportableComment(q, gameKey, commentId);
      return report(req, reportable, 'comment', commentId, req.body.reason);
    },
  );

  await app.register(async (admin) => {
    const api = admin.withTypeProvider<ZodTypeProvider>();
    // Before the body is read and before any other check says more than "not found".
    admin.addHook('onRequest', async (req) => {
      operatorOf(req.user, adminUids);
    });
    // Each write checks again, as its guard: a route registered here without the hook would
    // still be the operators' only.
    const operator = (req: FastifyRequest) => async () => operatorOf(req.user, adminUids);
    const writeSchema = { headers: idempotentHeadersSchema };
    const answers = { 200: okSchema, 404: errorSchema, 422: errorSchema };

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

    // Every operator's action is one write: the operator guard, the repo's change (null: there
    // is no such thing), and everything that shows the thing following at once.
    const adminOptions = <P extends z.ZodTypeAny>(summary: string, params: P) => ({
      // The hook above has already refused anyone but an operator.
      config: { anonymousWrites: true },
      schema: { tags, summary, ...writeSchema, params, response: answers },
    });
    const operatorWrite = (
      req: FastifyRequest,
      missing: string,
      act: (q: Queryable, uid: string) => Promise<ModerationChange | null>,
    ) =>
      writeChange(app, req, {
        guard: operator(req),
        write: async (q, uid) => {
          const change = await act(q, uid);
          if (!change) throw notFound(missing);
          return { touched: await audienceOf(q, change), answer: ok };
        },
      });

    const action = z.object({ action: z.enum(['hide', 'unhide', 'dismiss']) });
    api.post(
      '/admin/games/:gameKey/:action',
      adminOptions(
        'Hide a game from every public surface, restore it, or dismiss its reports ' +
          '(operators only; logged with who and when)',
        gameKeyParamsSchema.extend(action.shape),
      ),
      async (req) => {
        const { gameKey } = req.params;
        // The owner is told, too.
        return operatorWrite(req, 'No game with this key', async (q, uid) => {
          const ownerUid = await moderate(q, uid, gameKey, req.params.action);
          return ownerUid === null ? null : { kind: 'game', gameKey, ownerUid };
        });
      },
    );

    api.post(
      '/admin/comments/:commentId/:action',
      adminOptions(
        "Hide a game's comment from every public surface, restore it, or dismiss its " +
          'reports (operators only; logged with who and when)',
        z.object({ commentId: commentIdSchema, ...action.shape }),
      ),
      async (req) =>
        operatorWrite(req, 'No comment with this id', async (q, uid) => {
          const c = await moderateComment(q, uid, req.params.commentId, req.params.action);
          return c && { kind: 'comment', ...c };
        }),
    );

    api.post(
      '/admin/users/:uid/:action',
      adminOptions(
        'Block a person from public games (their games leave every public surface; they ' +
          'cannot create games) or unblock them (operators only; logged with who and when)',
        z.object({ uid: z.string().min(1).max(128), action: z.enum(['block', 'unblock']) }),
      ),
      async (req) => {
        const person = req.params.uid;
        return operatorWrite(req, 'No such person', async (q, uid) => {
          const games = await moderateUser(q, uid, person, req.params.action);
          return games && { kind: 'user', uid: person, games };
        });
      },
    );

    api.post(
      '/admin/tags/:tagID/:action',
      adminOptions(
        'Hide a tag from every public surface (lists, counts, its page, its games) or ' +
          'restore it (operators only; logged with who and when)',
        tagParamsSchema.extend({ action: z.enum(['hide', 'unhide']) }),
      ),
      async (req) => {
        const { tagID } = req.params;
        return operatorWrite(req, 'No tag with this key', async (q, uid) => {
          const games = await moderateTag(q, uid, tagID, req.params.action);
          return games && { kind: 'tag', tagKey: tagID, games };
        });
      },
    );
  });
}
