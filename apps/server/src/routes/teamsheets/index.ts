import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PhotoStore, photoRoutes } from './photos.ts';
import { teamRoutes } from './teams.ts';
import { playerRoutes } from './players.ts';
import { groupRoutes } from './groups.ts';
import { publishRoutes } from './publish.ts';
import { privacyRoutes } from './privacy.ts';
import { registerTeamsheetTopics } from './topics.ts';

// SPEC §2 team sheets: private sheets for their owner, published copies for everyone.
export default async function teamsheetsRoutes(app: FastifyInstance): Promise<void> {
  // DESIGN §5: photos on local disk under the data folder.
  const store = new PhotoStore(path.join(app.config.dataDir, 'photos'));
  registerTeamsheetTopics(app);
  teamRoutes(app);
  playerRoutes(app, store);
  groupRoutes(app);
  publishRoutes(app, store);
  privacyRoutes(app);
  photoRoutes(app, store);
}
