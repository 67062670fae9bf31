import type { FastifyInstance } from 'fastify';
import { teamRoutes } from './teams.ts';
import { playerRoutes } from './players.ts';
import { groupRoutes } from './groups.ts';
import { publishRoutes } from './publish.ts';
import { privacyRoutes } from './privacy.ts';
import { registerTeamsheetTopics } from './topics.ts';

// SPEC §2 team sheets: private sheets for their owner, published copies for everyone.
export default async function teamsheetsRoutes(app: FastifyInstance): Promise<void> {
  const store = app.photoStore;
  registerTeamsheetTopics(app);
  teamRoutes(app, store);
  playerRoutes(app, store);
  groupRoutes(app);
  publishRoutes(app);
  privacyRoutes(app);
}
