import type { FastifyInstance } from 'fastify';
import scorekeepingRoutes from './scorekeeping.ts';
import { registerScoreboardTopics } from './topics.ts';
import viewerRoutes from './viewer.ts';
import gameSheetRoutes from './sheets.ts';
import scoringSeasonRoutes from './scoring-season.ts';

// The scoreboards feature's HTTP routes and realtime topics are registered here.
export default async function scoreboardsRoutes(app: FastifyInstance): Promise<void> {
  registerScoreboardTopics(app);
  await app.register(scorekeepingRoutes);
  await app.register(viewerRoutes);
  await app.register(gameSheetRoutes);
  await app.register(scoringSeasonRoutes);
}
