import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { seedDemo } from '../src/demo/seed.ts';
import { startSimulator } from '../src/demo/simulator.ts';
import { API, buildTestApp, databaseKinds, type TestDatabase } from './helpers.ts';

interface Summary {
  gameKey: string;
  sportID: number;
  homeScore: number;
  awayScore: number;
}

describe.each(databaseKinds())('demo community on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await kind.open();
    app = await buildTestApp(database.db);
  });
  afterAll(async () => {
    await app.close();
    await database.cleanup();
  });

  it('seeds games of every sport with tags and comments, once', async () => {
    await seedDemo(app);
    const rows = await database.db.query<{ sport: number }>(
      `SELECT DISTINCT (fields->>'sportID')::int AS sport FROM games ORDER BY 1`,
    );
    expect(rows.map((r) => r.sport)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const tags = (await app.inject({ method: 'GET', url: `${API}/tags` })).json<{
      popularTags: { name: string; gameCount: number }[];
    }>();
    expect(tags.popularTags.find((t) => t.name === 'Demo')?.gameCount).toBeGreaterThan(2);
    const comments = await database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM game_comments',
    );
    expect(Number(comments[0]?.n)).toBeGreaterThan(3);
    const before = await database.db.query('SELECT game_key FROM games');
    await seedDemo(app); // a database with games is left alone
    expect(await database.db.query('SELECT game_key FROM games')).toHaveLength(before.length);
  });

  it('the simulator ticks clocks and moves scores through the scorekeeping writes', async () => {
    const recent = async () =>
      (await app.inject({ method: 'GET', url: `${API}/games/recent` })).json<Summary[]>();
    const basketball = (await recent()).find((g) => g.sportID === 2)!;
    const clockOf = async (gameKey: string) =>
      (
        await database.db.query<{ clock_seconds: number }>(
          'SELECT clock_seconds FROM games WHERE game_key = $1',
          [gameKey],
        )
      )[0]?.clock_seconds;
    const clockBefore = await clockOf(basketball.gameKey);
    // rng 0.05: every tick scores (for the home side), so the change is certain.
    const stop = startSimulator(app, () => 0.05);
    try {
      await expect
        .poll(async () => clockOf(basketball.gameKey), { timeout: 8000 })
        .toBeLessThan(clockBefore! - 1);
      await expect
        .poll(
          async () =>
            (await recent()).find((g) => g.gameKey === basketball.gameKey)?.homeScore ?? 0,
          { timeout: 8000 },
        )
        .toBeGreaterThan(basketball.homeScore);
    } finally {
      stop();
    }
  });
});
