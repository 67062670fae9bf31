import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorSchema, okSchema } from '@sagan/shared/http';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { scorekeeperMessageSchema } from '@sagan/shared/scoreboard';
import {
  favoritesTopicSchema,
  followedTagsTopicSchema,
  gameKeyParamsSchema,
  gameListSchema,
  gameTopicSchema,
  tagParamsSchema,
  tagsTopicSchema,
  tagTopicSchema,
  watchersSchema,
} from '@sagan/shared/scoreboard-views';
import { BASE_PATH, pathTo } from '@sagan/shared/routes';
import type { Queryable } from '../../db/db.ts';
import { requireUser } from '../../plugins/auth.ts';
import { requestOrigin } from '../../lib/hosts.ts';
import { notFound } from '../../lib/http-errors.ts';
import { sendQrPng } from '../../lib/qr.ts';
import {
  addFavoriteScoreboard,
  findPublicGame,
  findTag,
  followTag,
  insertScorekeeperMessage,
  loadFavorites,
  loadFollowedTags,
  loadGameTopic,
  loadRecentGames,
  loadTagLists,
  loadTagTopic,
  loadUserGames,
  removeFavoriteScoreboard,
  seesHidden,
  unfollowTag,
} from './repo.ts';
import { audienceOf, countWatchers } from './topics.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { writeChange } from '../../lib/write.ts';

const tags = ['scoreboards'];

/** The public game a route names, or the 404 of a game that does not exist. */
async function publicGame(q: Queryable, gameKey: string) {
  const game = await findPublicGame(q, gameKey);
  if (!game) throw notFound('No game with this key');
  return game;
}

const nothingToFind = async () => undefined;

/**
 * What viewers read and write (SPEC §7). The web app reads through the realtime topics; these
 * GETs return the same states for other clients.
 */
export default async function viewerRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  /**
   * A change to the signed-in user's own bookmarks or followed tags, of what `find` found (a
   * PUT's 404 when it is not there): answered ok, heard by that list's topic.
   */
  const listChange = <F>(
    req: FastifyRequest,
    kind: 'bookmarks' | 'follows',
    find: (q: Queryable) => Promise<F>,
    change: (q: Queryable, uid: string, found: F) => Promise<void>,
  ) => {
    const { uid } = requireUser(req);
    return writeChange(app, req, {
      guard: find,
      write: async (q, found) => {
        await change(q, uid, found);
        return { answer: { ok: true as const }, touched: audienceOf({ kind, uid }) };
      },
    });
  };

  /**
   * A GET of one of the signed-in user's own lists, as its topic sends it. Declared on the
   * plain instance: `load` already ties the answer to the schema, which the typed instance
   * cannot resolve for a generic one.
   */
  const ownList = <S extends z.ZodTypeAny>(
    path: string,
    summary: string,
    list: S,
    load: (q: Queryable, uid: string) => Promise<z.infer<S>>,
  ) =>
    fastify.get(
      path,
      { schema: { tags, summary, response: { 200: list, 401: errorSchema } } },
      async (req) => load(db, requireUser(req).uid),
    );

  /** The options of a listChange route: a keyed edit, answered ok (a PUT also 404 when `find` fails). */
  const listChangeOptions = <P extends z.ZodTypeAny>(
    summary: string,
    params: P,
    adds: boolean,
  ) => ({
    config: writeLimit(app.config.rateLimitFactor, 'edit'),
    schema: {
      tags,
      summary,
      headers: idempotentHeadersSchema,
      params,
      response: { 200: okSchema, 401: errorSchema, ...(adds ? { 404: errorSchema } : {}) },
    },
  });

  app.get(
    '/games/recent',
    {
      schema: {
        tags,
        summary: 'The 10 most recent games by timeStamp (topic games:recent)',
        response: { 200: gameListSchema },
      },
    },
    async () => loadRecentGames(db),
  );

  app.get(
    '/games/:gameKey',
    {
      schema: {
        tags,
        summary: 'A game: top, comments and tags (topic game:{gameKey})',
        params: gameKeyParamsSchema,
        response: { 200: gameTopicSchema.unwrap(), 404: errorSchema },
      },
    },
    async (req) => {
      const { gameKey } = req.params;
      const game = await loadGameTopic(db, gameKey);
      if (game) return game;
      // A hidden game is still its scorers' and the operators' to see.
      const uid = req.user?.uid;
      if (uid && (await seesHidden(db, uid, gameKey, app.config.adminUids))) {
        const own = await loadGameTopic(db, gameKey, true);
        if (own) return own;
      }
      throw notFound('No game with this key');
    },
  );

  app.get(
    '/games/:gameKey/watchers',
    {
      schema: {
        tags,
        summary: 'countScoreboardWatchers: people watching this game now, on every server node',
        params: gameKeyParamsSchema,
        response: { 200: watchersSchema, 404: errorSchema },
      },
    },
    async (req) => {
      const watchers = await countWatchers(app, req.params.gameKey);
      if (watchers === null) throw notFound('No game with this key');
      return { gameKey: req.params.gameKey, watchers };
    },
  );

  app.get(
    '/games/:gameKey/qr.png',
    {
      schema: {
        tags,
        summary:
          "QR code (PNG) of the game's public scoreboard link (error correction H, margin 3)",
        params: gameKeyParamsSchema,
      },
    },
    async (req, reply) => {
      await publicGame(db, req.params.gameKey);
      const url = `${requestOrigin(req, app.config.publicUrl)}${BASE_PATH}${pathTo('scoreboard', {
        gameKey: req.params.gameKey,
      })}`;
      return sendQrPng(reply, url);
    },
  );

  app.post(
    '/games/:gameKey/scorekeeper-message',
    {
      config: writeLimit(app.config.rateLimitFactor, 'scorekeeperMessage'),
      schema: {
        tags,
        summary:
          'scoreKeeperMessage: send the scorekeeper a message (signed in); the same ' +
          'Idempotency-Key again sends nothing more',
        headers: idempotentHeadersSchema,
        params: gameKeyParamsSchema,
        body: scorekeeperMessageSchema,
        response: { 200: okSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      const { gameKey } = req.params;
      const sent = await writeChange(app, req, {
        guard: (q) => publicGame(q, gameKey),
        write: async (q) => {
          await insertScorekeeperMessage(q, gameKey, uid, req.body.scoreKeeperMessage);
          // The scorekeeper reads their messages by asking (GET): no topic carries them.
          return { answer: { ok: true as const }, touched: [] };
        },
      });
      req.log.info({ gameKey }, 'scorekeeper message sent');
      return sent;
    },
  );

  app.get(
    '/tags',
    {
      schema: {
        tags,
        summary: 'New Tags and Popular Tags (topic tags)',
        response: { 200: tagsTopicSchema },
      },
    },
    async () => loadTagLists(db),
  );

  app.get(
    '/tags/:tagID',
    {
      schema: {
        tags,
        summary: 'A tag and its games (topic tag:{tagID})',
        params: tagParamsSchema,
        response: { 200: tagTopicSchema.unwrap(), 404: errorSchema },
      },
    },
    async (req) => {
      const tag = await loadTagTopic(db, req.params.tagID);
      if (!tag) throw notFound('No tag with this key');
      return tag;
    },
  );

  ownList('/me/games', 'My games (topic user:{uid}:games)', gameListSchema, loadUserGames);

  ownList(
    '/me/favorite-scoreboards',
    'My bookmarked games (topic user:{uid}:favorites)',
    favoritesTopicSchema,
    loadFavorites,
  );

  app.put(
    '/me/favorite-scoreboards/:gameKey',
    listChangeOptions('Bookmark a game (stores its gameName, SPEC §7)', gameKeyParamsSchema, true),
    async (req) =>
      listChange(
        req,
        'bookmarks',
        (q) => publicGame(q, req.params.gameKey),
        (q, uid, game) => addFavoriteScoreboard(q, uid, req.params.gameKey, game.fields.gameName),
      ),
  );

  app.delete(
    '/me/favorite-scoreboards/:gameKey',
    listChangeOptions('Remove a bookmark', gameKeyParamsSchema, false),
    async (req) =>
      listChange(req, 'bookmarks', nothingToFind, (q, uid) =>
        removeFavoriteScoreboard(q, uid, req.params.gameKey),
      ),
  );

  ownList(
    '/me/followed-tags',
    'Tags I follow and their games (topic user:{uid}:followedTags)',
    followedTagsTopicSchema,
    loadFollowedTags,
  );

  app.put(
    '/me/followed-tags/:tagID',
    listChangeOptions('Follow a tag', tagParamsSchema, true),
    async (req) =>
      listChange(
        req,
        'follows',
        async (q) => {
          if (!(await findTag(q, req.params.tagID))) throw notFound('No tag with this key');
        },
        (q, uid) => followTag(q, uid, req.params.tagID),
      ),
  );

  app.delete(
    '/me/followed-tags/:tagID',
    listChangeOptions('Unfollow a tag', tagParamsSchema, false),
    async (req) =>
      listChange(req, 'follows', nothingToFind, (q, uid) => unfollowTag(q, uid, req.params.tagID)),
  );
}
