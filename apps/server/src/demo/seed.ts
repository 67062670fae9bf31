import type { FastifyInstance } from 'fastify';
import {
  clockTickChange,
  commentChange,
  createGameChange,
  tagsChange,
} from '../routes/scoreboards/writes.ts';
import { writeChange } from '../lib/write.ts';
import { DEMO_GAMES } from './games.ts';

/** The demo scorekeeper owns every demo game; the simulator keeps some of them live. */
export const DEMO_UID = 'demo-scorekeeper';

/** Loads the demo community on an empty database (DESIGN §7); an existing one is left alone. */
export async function seedDemo(app: FastifyInstance): Promise<void> {
  const existing = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games');
  if (Number(existing[0]?.n ?? 0) > 0) {
    app.log.debug('demo seed: database has games, nothing seeded');
    return;
  }
  await app.db.query(
    `INSERT INTO users (uid, display_name) VALUES ($1, 'Demo Scorekeeper') ON CONFLICT (uid) DO NOTHING`,
    [DEMO_UID],
  );
  // Oldest first, so the first games of the list are the most recent on the dashboard.
  for (const game of [...DEMO_GAMES].reverse()) {
    const { gameKey } = await writeChange(app, null, createGameChange(DEMO_UID, game.fields));
    await writeChange(app, null, tagsChange(DEMO_UID, gameKey, game.tags));
    for (const gameComment of [...(game.comments ?? [])].reverse()) {
      const comment = {
        gameComment,
        homeTeamName: game.fields.homeTeamName ?? '',
        awayTeamName: game.fields.awayTeamName ?? '',
        homeScore: game.fields.homeScore ?? 0,
        awayScore: game.fields.awayScore ?? 0,
        imageURL: '',
      };
      await writeChange(app, null, commentChange(DEMO_UID, gameKey, comment));
    }
    if (game.clock) await writeChange(app, null, clockTickChange(DEMO_UID, gameKey, game.clock));
  }
  app.log.info({ games: DEMO_GAMES.length }, 'demo community loaded');
}
