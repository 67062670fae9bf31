import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { seedDemo } from '../src/demo/seed.ts';
import { loadGameDetail } from '../src/routes/scoreboards/game-detail.ts';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { DEMO_UID } from '../src/demo/seed.ts';
import { createSimulator, FINISHED_KEPT_PER_SPORT, startSimulator } from '../src/demo/simulator.ts';
import { API, buildTestApp, databaseKinds, seededRng, useTestApp } from './helpers.ts';

interface Summary {
  gameKey: string;
  sportID: number;
  homeScore: number;
  awayScore: number;
}

interface Row {
  game_key: string;
  fields: ScoreboardFields;
  clock_seconds: number | null;
}

describe.each(databaseKinds())('demo community on $name', (kind) => {
  const t = useTestApp(kind);
  const demoGames = () =>
    t.db.query<Row>('SELECT game_key, fields, clock_seconds FROM games WHERE uid = $1', [DEMO_UID]);

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

  it('the simulator plays believable games to Final, starts new ones and stays bounded', async () => {
    // Six sports, 25 steps of play a tick (the demo runs 1): a few games of each in seconds.
    const sports = [2, 3, 4, 6, 7, 8];
    const simulator = createSimulator(t.app, { rng: seededRng(5), stepsPerTick: 25, sports });
    const seeded = new Set(
      (await t.db.query<{ game_key: string }>('SELECT game_key FROM games')).map((r) => r.game_key),
    );
    const periods = new Map<string, string[]>();
    const finals = new Map<string, Row>();
    const clocks = new Map<string, number[]>();
    let mostPerSport = 0;
    let volleyballLines = 0;
    let tennisTiebreaks = 0;
    for (let tick = 0; tick < 100; tick++) {
      await simulator.tick();
      const rows = await demoGames();
      for (const row of rows) {
        const seen = periods.get(row.game_key) ?? [];
        if (seen.at(-1) !== row.fields.gamePeriod) seen.push(row.fields.gamePeriod);
        periods.set(row.game_key, seen);
        if (row.fields.gamePeriod === 'Final' && !finals.has(row.game_key)) {
          finals.set(row.game_key, row);
          // A demo volleyball match keeps every set's score in its line score, the winner's
          // three among them, as a scorer's "Won set" taps do.
          if (row.fields.sportID === 6 && !seeded.has(row.game_key)) {
            const sets = (await loadGameDetail(t.db, row.game_key))!.lineScore.periods;
            const won = sets.filter((p) => p.home!.points > p.away!.points).length;
            expect(
              sets.every((p) => !p.live && Math.abs(p.home!.points - p.away!.points) >= 2),
            ).toBe(true);
            expect([won, sets.length - won]).toContain(3);
            volleyballLines++;
          }
          // A demo tennis match's tiebreaks reach its line score, as a scorer's points do:
          // a set won 7–6 carries the tiebreak's points, to 7 or more by two.
          if (row.fields.sportID === 8 && !seeded.has(row.game_key)) {
            const sets = (await loadGameDetail(t.db, row.game_key))!.lineScore.periods;
            for (const p of sets) {
              const games = [p.home!.points, p.away!.points].sort();
              if (games[0] !== 6 || games[1] !== 7) {
                expect(p.tiebreak).toBeUndefined();
                continue;
              }
              const { home, away } = p.tiebreak!;
              expect(Math.max(home, away)).toBeGreaterThanOrEqual(7);
              expect(Math.abs(home - away)).toBeGreaterThanOrEqual(2);
              // The set's winner won its tiebreak.
              expect(Math.sign(home - away)).toBe(Math.sign(p.home!.points - p.away!.points));
              tennisTiebreaks++;
            }
          }
        }
        if (row.clock_seconds !== null) {
          clocks.set(row.game_key, [...(clocks.get(row.game_key) ?? []), row.clock_seconds]);
        }
      }
      for (const sport of sports) {
        const n = rows.filter((r) => r.fields.sportID === sport).length;
        mostPerSport = Math.max(mostPerSport, n);
      }
    }

    // New games were announced, started, ran their periods and ended Final.
    const made = [...periods].filter(([key]) => !seeded.has(key));
    const lived = made.filter(([, seen]) => seen[0] === 'Starting Soon' && seen.at(-1) === 'Final');
    expect(new Set(lived.map(([key]) => finals.get(key)!.fields.sportID))).toEqual(new Set(sports));
    const hoops = lived.find(([key]) => finals.get(key)!.fields.sportID === 2)!;
    expect(hoops[1].slice(0, 5)).toEqual(['Starting Soon', 'Q1', 'Q2', 'Q3', 'Q4']);
    // Its clock ran down each quarter.
    const hoopsClock = clocks.get(hoops[0])!;
    expect(hoopsClock.some((s, i) => i > 0 && s < hoopsClock[i - 1]!)).toBe(true);
    expect(Math.min(...hoopsClock)).toBe(0);

    // Final scores look like the sport's.
    for (const [, { fields: f }] of finals) {
      if (f.sportID === 3) expect(f.homeScore + f.awayScore).toBeLessThan(10);
      if (f.sportID === 2) {
        for (const s of [f.homeScore, f.awayScore]) expect(s).toBeGreaterThan(20);
        for (const s of [f.homeScore, f.awayScore]) expect(s).toBeLessThan(150);
      }
      if (f.sportID === 4) {
        expect(f.homeScore).toBe(f.homeScoreGoals * 6 + f.homeScorePoints);
        expect(f.awayScore).toBe(f.awayScoreGoals * 6 + f.awayScorePoints);
      }
      if (f.sportID === 6) expect(Math.max(f.homeScoreGames, f.awayScoreGames)).toBe(3);
      if (f.sportID === 8) expect(Math.max(f.homeScoreGames, f.awayScoreGames)).toBe(0);
      if (f.sportID === 7) expect(f.homeScore + f.awayScore).toBeLessThan(40);
    }

    expect(volleyballLines).toBeGreaterThan(0);
    expect(tennisTiebreaks).toBeGreaterThan(0);

    // Bounded: finished games leave once newer ones of their sport finished.
    expect(finals.size).toBeGreaterThan(sports.length * FINISHED_KEPT_PER_SPORT);
    expect(mostPerSport).toBeLessThanOrEqual(FINISHED_KEPT_PER_SPORT + 1);
    const left = await demoGames();
    for (const sport of sports) {
      const finished = left.filter(
        (r) => r.fields.sportID === sport && r.fields.gamePeriod === 'Final',
      );
      expect(finished.length).toBeLessThanOrEqual(FINISHED_KEPT_PER_SPORT);
    }
    // Viewers saw it through the public API: the recent list holds the live games.
    const recent = (await t.app.inject({ method: 'GET', url: `${API}/games/recent` })).json<
      Summary[]
    >();
    const keys = new Set(left.map((r) => r.game_key));
    expect(recent.filter((g) => sports.includes(g.sportID)).every((g) => keys.has(g.gameKey))).toBe(
      true,
    );
  }, 240_000);

  it('the running simulator ticks once a second through the scorekeeping writes', async () => {
    // Every basketball game of the demo, with its clock: a tick changes one of them.
    const state = async () =>
      (await demoGames())
        .filter((r) => r.fields.sportID === 2)
        .map((r) => ({ key: r.game_key, fields: r.fields, clock: r.clock_seconds }))
        .sort((x, y) => x.key.localeCompare(y.key));
    const before = await state();
    const stop = startSimulator(t.app, { sports: [2], stepsPerTick: 25 });
    try {
      await expect.poll(state, { timeout: 8000 }).not.toEqual(before);
    } finally {
      stop();
    }
  });
});

describe.each(databaseKinds())('stopping the simulator on $name', (kind) => {
  it('waits for the tick it interrupts, so the database can close under no write', async () => {
    const database = await kind.open();
    // The database as the app sees it, holding the simulator's first statement (it loads the
    // demo games) at a gate: the stop below lands in the middle of a tick on any machine.
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let atGate = () => {};
    const held = new Promise<void>((resolve) => (atGate = resolve));
    let loaded = false;
    const db: Db = {
      ...database.db,
      async query<T>(sql: string, params?: unknown[]) {
        if (sql.includes('FROM games WHERE uid = $1 ORDER BY time_stamp DESC')) {
          atGate();
          await gate;
          const rows = await database.db.query<T>(sql, params);
          loaded = true;
          return rows;
        }
        return database.db.query<T>(sql, params);
      },
    };
    const app = await buildTestApp(db);
    const warn = vi.spyOn(app.log, 'warn');
    try {
      await seedDemo(app);
      const stop = startSimulator(app, { sports: [2] });
      await held;
      const stopped = stop();
      open();
      await stopped;
      // The tick got past the statement it was stopped in before stop() resolved.
      expect(loaded).toBe(true);
    } finally {
      open();
      await app.close();
      await database.cleanup();
    }
    // Closing the database failed no write of the simulator's.
    expect(warn).not.toHaveBeenCalled();
  });
});
