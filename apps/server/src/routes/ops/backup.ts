import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../lib/http-errors.ts';
import { takeBackup } from '../../ops/backup.ts';

/** The file in the data folder holding this run's backup token; only its owner may read it. */
export const BACKUP_TOKEN_FILE = 'backup.token';
export const BACKUP_TOKEN_HEADER = 'x-sagan-backup-token';

const backupHeaders = z.object({ [BACKUP_TOKEN_HEADER]: z.string().max(200).optional() });

/**
 * A running PGlite server holds its database: only it can take a consistent copy. The backup
 * command asks it here. Allowed only from this machine's own socket (not through a proxy,
 * whose requests also arrive from loopback: hence no X-Forwarded-For) and with the token the
 * server wrote into its data folder at start, which only the account running it can read.
 * Everyone else gets the 404 of a route that does not exist.
 */
export function backupRoutes(app: FastifyInstance): void {
  const tokenFile = path.join(app.config.dataDir, BACKUP_TOKEN_FILE);
  let token: string | null = null;
  app.addHook('onReady', async () => {
    // A server without a data folder (tests, a PostgreSQL node) takes no backup over HTTP.
    if (!fs.existsSync(app.config.dataDir)) return;
    token = crypto.randomBytes(32).toString('base64url');
    fs.writeFileSync(tokenFile, token, { mode: 0o600 });
  });
  app.addHook('onClose', async () => {
    if (token) fs.rmSync(tokenFile, { force: true });
  });

  const allowed = (req: FastifyRequest, given: string | undefined): boolean => {
    const address = req.raw.socket.remoteAddress ?? '';
    const loopback = /^(127\.|::1$|::ffff:127\.)/.test(address);
    if (!token || !given || !loopback || req.headers['x-forwarded-for'] !== undefined) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && crypto.timingSafeEqual(a, b);
  };

  app.post(
    '/ops/backup',
    {
      // No session: the caller is the backup command on this machine, proven by the token in
      // the data folder, and everyone else gets the same 404 as an unknown path. It sends no
      // body, so none is read.
      config: { anonymousWrites: true },
      bodyLimit: 1024,
      schema: {
        tags: ['ops'],
        summary:
          'A backup of this server (the database at one moment, and the photos) as a tar; ' +
          'for `npm run backup` on this machine only',
        headers: backupHeaders,
      },
    },
    async (req, reply) => {
      const given = req.headers[BACKUP_TOKEN_HEADER];
      if (typeof given !== 'string' || !allowed(req, given)) throw notFound();
      const file = path.join(app.config.dataDir, `.backup-${crypto.randomUUID()}.tar`);
      try {
        const manifest = await takeBackup(
          { db: app.db, dataDir: app.config.dataDir, databaseUrl: app.config.databaseUrl },
          file,
        );
        req.log.info(
          {
            tables: Object.keys(manifest.moment.tables).length,
            photos: manifest.photos,
            heldMs: manifest.heldMs,
          },
          'backup taken',
        );
        app.metrics.backup('ok', manifest.heldMs);
      } catch (err) {
        app.metrics.backup('failed', 0);
        fs.rmSync(file, { force: true });
        throw err;
      }
      const stream = fs.createReadStream(file);
      stream.once('close', () => fs.rmSync(file, { force: true }));
      return reply.header('content-type', 'application/x-tar').send(stream);
    },
  );
}
