// The real server for the e2e run: a new embedded database each run, no demo data.
import path from 'node:path';
import { newPgliteDataDir } from './lib/pglite-template.ts';
import { root, startSaganServer } from './lib/server.ts';
import { localUid } from '../apps/server/src/auth/local-uid.ts';

const dataDir = path.join(root, '.tmp', `e2e-data-${process.env.PORT ?? 'default'}`);
await newPgliteDataDir(dataDir);
const server = await startSaganServer({
  DATA_DIR: dataDir,
  RATE_LIMIT_FACTOR: '100',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  SUPPORT_EMAIL: 'help@sagan.example',
  // Outside links as an operator sets them; SOCIAL_URL stays unset, so its link must not show.
  OPERATOR_NAME: 'Riverside Juniors Club',
  ABOUT_URL: 'https://club.example/about',
  APPS_URL: 'https://club.example/apps',
  BLOG_URL: 'https://club.example/blog/',
  PROMO_URL: 'https://club.example/score-free',
  PLAYER_COUNTER_URL: 'https://club.example/player-counter',
  // The operator e2e/moderation.spec.ts signs in as (local sign-in's uid of that name).
  ADMIN_UIDS: localUid('E2E Moderator'),
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.proc.kill(sig));
void server.exited.then((code) => process.exit(code ?? 0));
