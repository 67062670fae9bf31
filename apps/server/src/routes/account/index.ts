import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deleteAccountResultSchema,
  deleteAccountSchema,
  myDataFileName,
} from '@sagan/shared/account';
import { errorSchema, refusals } from '@sagan/shared/http';
import { playCountShareTopic } from '@sagan/shared/topics/playcount-share';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameTopic } from '@sagan/shared/topics/game';
import { userTopicFamily } from '@sagan/shared/topics/user';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { requireUser } from '../../plugins/auth.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { scorerTopics } from '../../lib/game-guard.ts';
import { deleteGameChange } from '../scoreboards/public.ts';
import { writeChange } from '../../lib/write.ts';
import { deleteTeam, teamAudienceOf } from '../teamsheets/public.ts';
import { changedTopics } from '../playcounts/public.ts';
import { collectMyData, ownedKeys } from './repo.ts';

/** Who made an event once its maker deleted their account: no account has an empty uid. */
const ANONYMOUS_UID = '';

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
      const origin = app.config.publicUrl ?? `${req.protocol}://${req.host}`;
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
      const { photoIds, sessions } = await db.tx(async (q) => {
        const photoIds: string[] = [];
        // Read again inside the transaction: a team made meanwhile goes too.
        const teams = await q.query<{ team_key: string }>(
          'SELECT team_key FROM teams WHERE uid = $1 FOR UPDATE',
          [user.uid],
        );
        for (const { team_key: teamKey } of teams) {
          const gone = await deleteTeam(q, teamKey);
          photoIds.push(...gone.photoIds);
          await hub.changed(q, teamAudienceOf(gone.change));
        }
        const counts = await q.query<{ game_key: string; share_key: string | null }>(
          'DELETE FROM play_count_games WHERE uid = $1 RETURNING game_key, share_key',
          [user.uid],
        );
        // Open shared links load null and close.
        await hub.changed(q, [
          ...counts.flatMap((c) => changedTopics(user.uid, c.game_key, c.share_key)),
          ...counts.flatMap((c) => (c.share_key ? [playCountShareTopic.name(c.share_key)] : [])),
        ]);
        // Their co-counters' sockets lose the counts at once.
        await hub.recheck(
          q,
          counts.flatMap((c) => [
            ...scorerTopics('playcount', c.game_key),
            coscorersTopic.name('playcount', c.game_key),
          ]),
        );
        const rest = await q.query<{ id: string }>(
          `DELETE FROM photos ph WHERE ph.uid = $1
             AND NOT EXISTS (SELECT 1 FROM players p WHERE p.photo_id = ph.id) RETURNING id`,
          [user.uid],
        );
        photoIds.push(...rest.map((r) => r.id));
        const sessions = await q.query<{ id_hash: string }>(
          'DELETE FROM sessions WHERE uid = $1 RETURNING id_hash',
          [user.uid],
        );
        // A game made after the deletions above (another tab) would keep the user's row.
        const late = await q.query<{ game_key: string }>(
          'DELETE FROM games WHERE uid = $1 RETURNING game_key',
          [user.uid],
        );
        if (late.length) {
          await hub.changed(q, [
            recentGamesTopic.name(),
            ...late.map((g) => gameTopic.name(g.game_key)),
            ...late.map((g) => gameDetailTopic.name(g.game_key)),
          ]);
        }
        // What they did in other people's games and counts stays in those logs (their scores
        // depend on it), but no longer says who: the Changes list then names nobody.
        await q.query(
          `UPDATE game_events SET uid = $2, device = NULL, base_seq = NULL WHERE uid = $1`,
          [user.uid, ANONYMOUS_UID],
        );
        await q.query(
          `UPDATE playcount_events SET uid = $2, device = NULL, base_seq = NULL WHERE uid = $1`,
          [user.uid, ANONYMOUS_UID],
        );
        // The moderation log keeps what was done, not to whom or by whom, nor to which of
        // their games (whose names may name their children), and tells them nothing more.
        await q.query(
          `UPDATE moderation_actions
              SET owner_uid = $2, game_key = '', game_name = '', detail = '',
                  owner_seen_at = coalesce(owner_seen_at, now())
            WHERE owner_uid = $1`,
          [user.uid, ANONYMOUS_UID],
        );
        await q.query(`UPDATE moderation_actions SET admin_uid = $2 WHERE admin_uid = $1`, [
          user.uid,
          ANONYMOUS_UID,
        ]);
        // Bookmarks, follows, messages sent, reports and idempotency keys go with the user's row.
        await q.query('DELETE FROM users WHERE uid = $1', [user.uid]);
        return { photoIds, sessions: sessions.map((s) => s.id_hash) };
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
