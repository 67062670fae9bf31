import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deleteAccountResultSchema,
  deleteAccountSchema,
  myDataFileName,
} from '@sagan/shared/account';
import { errorSchema, refusals } from '@sagan/shared/http';
import { userTopicFamily } from '@sagan/shared/topics/user';
import { requireUser } from '../../plugins/auth.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { requestOrigin } from '../../lib/hosts.ts';
import { deleteGameChange } from '../scoreboards/public.ts';
import { writeChange } from '../../lib/write.ts';
import { collectMyData, deleteAccountRows, ownedKeys } from './repo.ts';
import { ownAccount } from './policy.ts';
import { audienceOf, closedBy } from './topics.ts';

/**
 * A person's own data (SPEC's user menu, DESIGN §10 operations): download all of it as one
 * file, or delete the account with everything it made. Only ever the signed-in user's own.
 */
export default async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;
  const store = app.photoStore;

  app.get(
    '/me/data',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['account'],
        summary:
          'Download my data: account, games, comments, messages, followed tags, bookmarks, ' +
          'teams with players and photos, play counts and share links, as one JSON file',
        response: { 200: z.record(z.string(), z.unknown()), ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const origin = requestOrigin(req, app.config.publicUrl);
      const data = await db.tx((q) => collectMyData(q, user.uid, store, origin), {
        snapshot: true,
      });
      return reply
        .header(
          'content-disposition',
          `attachment; filename="${myDataFileName(String(data['exportedAt']))}"`,
        )
        .send(data);
    },
  );

  app.post(
    '/me/delete',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['account'],
        summary:
          'Delete my account: my teams, players, photos, games, play counts, share links, ' +
          'bookmarks, follows and sessions; photos and links answer not-found at once',
        body: deleteAccountSchema,
        response: { 200: deleteAccountResultSchema, 400: errorSchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const owned = await ownedKeys(db, user.uid);
      // Each game goes as its owner's delete does, so every list and viewer showing it is told.
      for (const gameKey of owned.games) {
        await writeChange(app, null, deleteGameChange(user.uid, gameKey)).catch((err: unknown) => {
          // Deleted meanwhile (another tab): what matters is that it is gone.
          if ((err as { statusCode?: number }).statusCode !== 404) throw err;
        });
      }
      // Not kept under an Idempotency-Key: the key table's rows go with the account's row,
      // and so does the session a replay would need.
      const { photoIds, sessions } = await writeChange(app, null, {
        guard: (q) => ownAccount(q, user.uid),
        write: async (q) => {
          const gone = await deleteAccountRows(q, user.uid);
          // Their co-counters' sockets lose the counts at once.
          return {
            touched: audienceOf(user.uid, gone),
            revoked: { topics: closedBy(gone) },
            answer: gone,
          };
        },
      });
      for (const id of photoIds) await store.removeFile(id);
      // The counters of their own lists' topics are named after their uid: once the coalescer
      // has numbered what the deletions marked, they go too.
      await hub.coalescer.settled();
      await db.query('DELETE FROM topic_seq WHERE starts_with(topic, $1)', [
        `${userTopicFamily.prefix}:${user.uid}:`,
      ]);
      // So are the write-limit counters every node shares (`<route> user:<uid>`), this very
      // request's claim included, which is why they go last.
      await db.query('DELETE FROM write_limit_windows WHERE right(limit_key, length($1)) = $1', [
        ` user:${user.uid}`,
      ]);
      await app.sessionWatch.ended(sessions);
      reply.clearCookie(app.sessionCookieName, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: app.config.cookieSecure,
      });
      return {
        ok: true as const,
        teams: owned.teams.length,
        games: owned.games.length,
        playCounts: owned.playCounts.length,
        photos: photoIds.length,
      };
    },
  );
}
