import type { FastifyInstance } from 'fastify';
import { photoStoreOf } from '../../photos.ts';
import { teamRoutes } from './teams.ts';
import { playerRoutes } from './players.ts';
import { groupRoutes } from './groups.ts';
import { publishRoutes } from './publish.ts';
import { privacyRoutes } from './privacy.ts';
import { registerTeamsheetTopics } from './topics.ts';

// SPEC §2 team sheets: private sheets for their owner, published copies for everyone.
export default async function teamsheetsRoutes(app: FastifyInstance): Promise<void> {
  // DESIGN §5: photos on local disk under the data folder.
  const store = photoStoreOf(app.config.dataDir);
  app.addHook('onReady', async () => {
    await store.sweep(app.db, app.log).catch((err: unknown) => {
      app.log.warn({ err }, 'photos: the start-up sweep failed');
    });
  });
  registerTeamsheetTopics(app);
  teamRoutes(app, store);
  playerRoutes(app, store);
  groupRoutes(app);
  publishRoutes(app, store);
  privacyRoutes(app);
}
