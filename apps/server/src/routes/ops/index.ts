import type { FastifyInstance } from 'fastify';
import { backupRoutes } from './backup.ts';
import { moderationRoutes } from './moderation.ts';

// Running a site: backups (and, beside them, what operators need).
export default async function opsRoutes(app: FastifyInstance): Promise<void> {
  backupRoutes(app);
  await moderationRoutes(app);
}
