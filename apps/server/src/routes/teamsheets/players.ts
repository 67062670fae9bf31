import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, refusals } from '@sagan/shared/http';
import { bulkRowsToSave, parseBulkUpload } from '@sagan/shared/bulk-upload';
import {
  bulkResultSchema,
  bulkUploadSchema,
  existingPlayerParams,
  MAX_BULK_ROWS,
  NEW_PLAYER_KEY,
  photoDataUrlSchema,
  playerKeyParams,
  playerSaveSchema,
  playerSchema,
  teamKeyParams,
} from '@sagan/shared/teamsheet-schemas';
import { requireUser } from '../../plugins/auth.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { acceptImageBodies } from '../../lib/image-body.ts';
import type { Queryable } from '../../db/db.ts';
import { decodeDataUrl, MAX_PHOTO_BYTES, processPhoto, type PhotoStore } from '../photos/public.ts';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import {
  countPlayers,
  deletePlayer,
  findPlayer,
  insertPlayer,
  playerPhotoId,
  setPlayerPhoto,
  touchTeam,
  updatePlayer,
} from './repo.ts';
import { ownedTeam, sheetOwnerGuard } from './policy.ts';
import { audienceOf } from './topics.ts';
import { applyChange, writeChange } from '../../lib/write.ts';
import { imageBudget } from '../../lib/write-limits.ts';
import { signedInRoutes } from '../../lib/route-options.ts';
import { BULK_BODY_BYTES } from '../../lib/body-limits.ts';

/** A roster bigger than any real team; it bounds what one account can store. */
const MAX_PLAYERS = 500;

export function playerRoutes(fastify: FastifyInstance, store: PhotoStore): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app;
  const chargeImage = imageBudget(fastify, config.rateLimitFactor);
  const declare = signedInRoutes(app, 'teamsheets');

  /**
   * Stores a new photo for a player inside the caller's transaction, as part of a save that
   * may still fail: the file goes again if the transaction does not commit, or if the answer
   * is an earlier request's (the loser of two racing requests under one key rolled back).
   */
  async function withPhotoSave<T>(
    jpeg: Buffer | null,
    run: (
      attach: (q: Queryable, uid: string, teamKey: string, playerKey: string) => Promise<void>,
    ) => Promise<{ answer: T; replayed: boolean }>,
  ): Promise<T> {
    let saved: string | undefined;
    try {
      const { answer, replayed } = await run(async (q, uid, teamKey, playerKey) => {
        if (!jpeg) return;
        const old = await playerPhotoId(q, teamKey, playerKey);
        if (old === undefined) throw notFound('Player not found');
        // A run that another write's failure rolled back (db.tx) left its file behind.
        if (saved) await store.removeFile(saved);
        saved = await store.save(q, uid, jpeg);
        await setPlayerPhoto(q, teamKey, playerKey, saved);
        await store.release(q, [old]);
      });
      if (replayed && saved) await store.removeFile(saved);
      return answer;
    } catch (err) {
      if (saved) await store.removeFile(saved);
      throw err;
    }
  }

  app.put(
    '/teams/:teamKey/players/:playerKey',
    {
      // A photo may come with the player, as a data URL.
      bodyLimit: Math.ceil(MAX_PHOTO_BYTES * 1.4),
      ...declare.write(
        'Save a player, with their photo if dataUrl is given: all of it or nothing (SPEC §4: ' +
          'key -1 creates one with a new key; the same Idempotency-Key, or createKey, again ' +
          'answers with that player)',
        { params: playerKeyParams, body: playerSaveSchema },
        { 200: playerSchema },
      ),
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { dataUrl, createKey, ...fields } = req.body;
      // The picture is checked and re-encoded before anything is written: a file that is not a
      // picture refuses the whole save, so a retry cannot leave a second player behind.
      if (dataUrl) {
        await ownedTeam(db, user, req.params.teamKey); // before spending CPU on it
        await chargeImage(req, reply);
      }
      const jpeg = dataUrl ? await processPhoto(decodeDataUrl(dataUrl)) : null;
      return withPhotoSave(jpeg, (attachPhoto) =>
        applyChange(app, req, {
          ...(req.params.playerKey === NEW_PLAYER_KEY ? { createKey } : {}),
          guard: sheetOwnerGuard(req),
          write: async (q, team) => {
            let playerKey = req.params.playerKey;
            if (playerKey === NEW_PLAYER_KEY) {
              if ((await countPlayers(q, team.team_key)) >= MAX_PLAYERS) {
                throw badRequest(`A team can have at most ${MAX_PLAYERS} players`);
              }
              playerKey = await insertPlayer(q, team.team_key, fields);
            } else if (!(await updatePlayer(q, team.team_key, playerKey, fields))) {
              throw notFound('Player not found');
            }
            await attachPhoto(q, user.uid, team.team_key, playerKey);
            const touched = audienceOf(await touchTeam(q, team.team_key));
            const player = await findPlayer(q, team.team_key, playerKey);
            if (!player) throw notFound('Player not found');
            return { answer: player, touched };
          },
        }),
      );
    },
  );

  app.delete(
    '/teams/:teamKey/players/:playerKey',
    declare.write(
      'Delete a player (and their group memberships)',
      { params: existingPlayerParams },
      { 200: okSchema },
    ),
    async (req) => {
      return writeChange(app, req, {
        guard: sheetOwnerGuard(req),
        write: async (q, team) => {
          const photoId = await deletePlayer(q, team.team_key, req.params.playerKey);
          if (photoId === undefined) throw notFound('Player not found');
          const touched = audienceOf(await touchTeam(q, team.team_key));
          await store.release(q, [photoId]);
          return { answer: { ok: true as const }, touched };
        },
      });
    },
  );

  app.post(
    '/teams/:teamKey/players/bulk',
    {
      bodyLimit: BULK_BODY_BYTES,
      ...declare.write(
        'Bulk upload: one player a line, jersey first (SPEC §5); blank lines skipped; the ' +
          'same Idempotency-Key (or createKey) again adds nothing',
        { params: teamKeyParams, body: bulkUploadSchema },
        { 200: bulkResultSchema },
        'create',
      ),
    },
    async (req) => {
      const guard = sheetOwnerGuard(req);
      const result = bulkRowsToSave(parseBulkUpload(req.body.text));
      if (!result.ok) throw badRequest(`Line ${result.line}: ${result.problem}`);
      if (!result.rows.length) throw badRequest('There are no players to add');
      if (result.rows.length > MAX_BULK_ROWS) {
        throw badRequest(`At most ${MAX_BULK_ROWS} players can be added at once`);
      }
      return writeChange(app, req, {
        createKey: req.body.createKey,
        guard,
        write: async (q, team) => {
          if ((await countPlayers(q, team.team_key)) + result.rows.length > MAX_PLAYERS) {
            throw badRequest(`A team can have at most ${MAX_PLAYERS} players`);
          }
          for (const row of result.rows) await insertPlayer(q, team.team_key, row);
          const touched = audienceOf(await touchTeam(q, team.team_key));
          return { answer: { created: result.rows.length }, touched };
        },
      });
    },
  );

  // DESIGN §5: the picture arrives as a raw image body, or as a data URL in JSON like the
  // original app sent it. Only this route takes large bodies.
  acceptImageBodies(fastify, MAX_PHOTO_BYTES);
  app.put(
    '/teams/:teamKey/players/:playerKey/photo',
    {
      bodyLimit: Math.ceil(MAX_PHOTO_BYTES * 1.4),
      // Its limit is the image budget, charged in the handler with the player save's pictures.
      config: { imageBody: true },
      schema: {
        tags: ['teamsheets'],
        summary:
          "Set a player's photo: an image/* body or JSON { dataUrl }. Re-encoded to JPEG, " +
          'at most 1024px, metadata stripped.',
        headers: idempotentHeadersSchema,
        params: existingPlayerParams,
        response: { 200: playerSchema, ...refusals },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { teamKey, playerKey } = req.params;
      // Cheap ownership check before spending CPU on the image.
      await ownedTeam(db, user, teamKey);
      await chargeImage(req, reply);
      let input: Buffer;
      if (Buffer.isBuffer(req.body)) input = req.body;
      else {
        const parsed = photoDataUrlSchema.safeParse(req.body);
        if (!parsed.success) throw badRequest('Send an image file or { dataUrl }');
        input = decodeDataUrl(parsed.data.dataUrl);
      }
      const jpeg = await processPhoto(input);
      return withPhotoSave(jpeg, (attachPhoto) =>
        applyChange(app, req, {
          guard: sheetOwnerGuard(req),
          write: async (q, team) => {
            await attachPhoto(q, user.uid, team.team_key, playerKey);
            const touched = audienceOf(await touchTeam(q, team.team_key));
            const player = await findPlayer(q, team.team_key, playerKey);
            if (!player) throw notFound('Player not found');
            return { answer: player, touched };
          },
        }),
      );
    },
  );
}
