import { describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo/seed.ts';
import { startSimulator } from '../src/demo/simulator.ts';
import { API, databaseKinds, useTestApp } from './helpers.ts';

interface Summary {
  gameKey: string;
  sportID: number;
  homeScore: number;
  awayScore: number;
}

describe.each(databaseKinds())('demo community on $name', (kind) => {
  const t = useTestApp(kind);

  it('seeds games of every sport with tags and comments, once', async () => {
    await seedDemo(t.app);
    const rows = await t.db.query<{ sport: number }>(
      `SELECT DISTINCT (fields->>'sportID')::int AS sport FROM games ORDER BY 1`,
    );
    expect(rows.map((r) => r.sport)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const tags = (await t.app.inject({ method: 'GET', url: `${API}/tags` })).json<{
      popularTags: { name: string; gameCount: number }[];
    }>();
    expect(tags.popularTags.find((t) => t.name === 'Demo')?.gameCount).toBeGreaterThan(2);
    const comments = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM game_comments',
    );
    expect(Number(comments[0]?.n)).toBeGreaterThan(3);
    const before = await t.db.query('SELECT game_key FROM games');
    await seedDemo(t.app); // a database with games is left alone
    expect(await t.db.query('SELECT game_key FROM games')).toHaveLength(before.length);
  });

  it('the simulator ticks clocks and moves scores through the scorekeeping writes', async () => {
    const recent = async () =>
      (await t.app.inject({ method: 'GET', url: `${API}/games/recent` })).json<Summary[]>();
    const basketball = (await recent()).find((g) => g.sportID === 2)!;
    const clockOf = async (gameKey: string) =>
      (
        await t.db.query<{ clock_seconds: number }>(
          'SELECT clock_seconds FROM games WHERE game_key = $1',
          [gameKey],
        )
      )[0]?.clock_seconds;
    const clockBefore = await clockOf(basketball.gameKey);
    // rng 0.05: every tick scores (for the home side), so the change is certain.
    const stop = startSimulator(t.app, () => 0.05);
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
