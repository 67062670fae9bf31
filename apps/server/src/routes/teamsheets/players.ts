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
import { newKey } from '../../lib/keys.ts';
import type { Queryable } from '../../db/db.ts';
import {
  decodeDataUrl,
  MAX_PHOTO_BYTES,
  ownerPhotoId,
  processPhoto,
  sendPhoto,
  type PhotoStore,
} from '../../photos.ts';
import { findPlayer, ownedTeam, touchTeam } from './repo.ts';
import { writeLimit } from '../../lib/write-limits.ts';

/** A roster bigger than any real team; it bounds what one account can store. */
const MAX_PLAYERS = 500;

async function playerCount(q: Queryable, teamKey: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM players WHERE team_key = $1',
    [teamKey],
  );
  return row?.n ?? 0;
}

export function playerRoutes(fastify: FastifyInstance, store: PhotoStore): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub, config } = app;
  const changed = hub.changed.bind(hub);

  app.put(
    '/teams/:teamKey/players/:playerKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Save a player (SPEC §4: key -1 creates one with a new key)',
        params: playerKeyParams,
        body: playerSaveSchema,
        response: { 200: playerSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { jersey, playerName, playerNotes } = req.body;
      return db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        let playerKey = req.params.playerKey;
        if (playerKey === NEW_PLAYER_KEY) {
          if ((await playerCount(q, team.team_key)) >= MAX_PLAYERS) {
            throw badRequest(`A team can have at most ${MAX_PLAYERS} players`);
          }
          playerKey = newKey();
          await q.query(
            `INSERT INTO players (team_key, player_key, jersey, player_name, player_notes)
             VALUES ($1, $2, $3, $4, $5)`,
            [team.team_key, playerKey, jersey, playerName, playerNotes],
          );
        } else {
          const rows = await q.query(
            `UPDATE players SET jersey = $3, player_name = $4, player_notes = $5
             WHERE team_key = $1 AND player_key = $2 RETURNING 1`,
            [team.team_key, playerKey, jersey, playerName, playerNotes],
          );
          if (!rows.length) throw notFound('Player not found');
        }
        await touchTeam(q, changed, team.team_key);
        const player = await findPlayer(q, team.team_key, playerKey);
        if (!player) throw notFound('Player not found');
        return player;
      });
    },
  );

  app.delete(
    '/teams/:teamKey/players/:playerKey',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Delete a player (and their group memberships)',
        params: existingPlayerParams,
        response: { 200: okSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        const rows = await q.query<{ photo_id: string | null }>(
          'DELETE FROM players WHERE team_key = $1 AND player_key = $2 RETURNING photo_id',
          [team.team_key, req.params.playerKey],
        );
        if (!rows[0]) throw notFound('Player not found');
        await touchTeam(q, changed, team.team_key);
        await store.release(q, [rows[0].photo_id]);
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/teams/:teamKey/players/bulk',
    {
      config: writeLimit(app.config.rateLimitFactor, 'create'),
      schema: {
        tags: ['teamsheets'],
        summary: 'Bulk upload: one player a line, jersey first (SPEC §5); blank lines skipped',
        params: teamKeyParams,
        body: bulkUploadSchema,
        response: { 200: bulkResultSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const result = bulkRowsToSave(parseBulkUpload(req.body.text));
      if (!result.ok) throw badRequest(`Line ${result.line}: ${result.problem}`);
      if (!result.rows.length) throw badRequest('There are no players to add');
      if (result.rows.length > MAX_BULK_ROWS) {
        throw badRequest(`At most ${MAX_BULK_ROWS} players can be added at once`);
      }
      return db.tx(async (q) => {
        const team = await ownedTeam(q, user, req.params.teamKey, true);
        if ((await playerCount(q, team.team_key)) + result.rows.length > MAX_PLAYERS) {
          throw badRequest(`A team can have at most ${MAX_PLAYERS} players`);
        }
        for (const row of result.rows) {
          await q.query(
            `INSERT INTO players (team_key, player_key, jersey, player_name) VALUES ($1, $2, $3, $4)`,
            [team.team_key, newKey(), row.jersey, row.playerName],
          );
        }
        await touchTeam(q, changed, team.team_key);
        return { created: result.rows.length };
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
      config: {
        imageBody: true,
        // Per uploader, not per address: a club's coaches often share one network.
        rateLimit: {
          max: Math.ceil(60 * config.rateLimitFactor),
          timeWindow: '1 minute',
          keyGenerator: (req) => req.user?.uid ?? req.ip,
        },
      },
      schema: {
        tags: ['teamsheets'],
        summary:
          "Set a player's photo: an image/* body or JSON { dataUrl }. Re-encoded to JPEG, " +
          'at most 1024px, metadata stripped.',
        params: existingPlayerParams,
        response: { 200: playerSchema, ...refusals },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { teamKey, playerKey } = req.params;
      // Cheap ownership check before spending CPU on the image.
      await ownedTeam(db, user, teamKey);
      let input: Buffer;
      if (Buffer.isBuffer(req.body)) input = req.body;
      else {
        const parsed = photoDataUrlSchema.safeParse(req.body);
        if (!parsed.success) throw badRequest('Send an image file or { dataUrl }');
        input = decodeDataUrl(parsed.data.dataUrl);
      }
      const jpeg = await processPhoto(input);
      let saved: string | undefined;
      try {
        return await db.tx(async (q) => {
          const team = await ownedTeam(q, user, teamKey, true);
          const old = await q.query<{ photo_id: string | null }>(
            'SELECT photo_id FROM players WHERE team_key = $1 AND player_key = $2',
            [team.team_key, playerKey],
          );
          if (!old[0]) throw notFound('Player not found');
          saved = await store.save(q, user.uid, jpeg);
          // An imported external URL gives way to the uploaded photo.
          await q.query(
            `UPDATE players SET photo_id = $3, image_url = ''
             WHERE team_key = $1 AND player_key = $2`,
            [team.team_key, playerKey, saved],
          );
          await touchTeam(q, changed, team.team_key);
          await store.release(q, [old[0].photo_id]);
          const player = await findPlayer(q, team.team_key, playerKey);
          if (!player) throw notFound('Player not found');
          return player;
        });
      } catch (err) {
        if (saved) await store.removeFile(saved);
        throw err;
      }
    },
  );

  app.get(
    '/teams/:teamKey/players/:playerKey/photo',
    {
      schema: {
        tags: ['teamsheets'],
        summary: "A player's photo, for the sheet's owner (JPEG; revalidated on each use)",
        params: existingPlayerParams,
        response: refusals,
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { teamKey, playerKey } = req.params;
      return sendPhoto(
        req,
        reply,
        store,
        await ownerPhotoId(db, user.uid, teamKey, playerKey),
        'private',
      );
    },
  );
}
