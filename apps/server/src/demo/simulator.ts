import type { FastifyInstance } from 'fastify';
import { formatClock } from '@sagan/shared/game-clock';
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { patchGame, postClock } from '../routes/scoreboards/repo.ts';
import { DEMO_UID } from './seed.ts';

const TICK_MS = 1000;
/** Sports the simulator keeps live, with how a score moves and how the clock runs. */
const LIVE: Record<
  number,
  { points: number[]; periods: string[]; periodSeconds: number; countUp: boolean }
> = {
  2: {
    points: [2, 2, 3, 1],
    periods: ['Q1', 'Q2', 'Q3', 'Q4'],
    periodSeconds: 480,
    countUp: false,
  },
  3: { points: [1], periods: ['1st Half', '2nd Half'], periodSeconds: 2700, countUp: true },
  10: { points: [1], periods: ['Q1', 'Q2', 'Q3', 'Q4'], periodSeconds: 720, countUp: false },
};

interface LiveGame {
  gameKey: string;
  sportID: number;
  fields: ScoreboardFields;
  /** Seconds of play left (countdown) or played (count-up) in the period. */
  seconds: number;
  /** Ticks to wait after 'Final' before a new game starts. */
  restIn: number;
}

/**
 * Keeps a few demo games live through the same writes the scorekeeping API makes (DESIGN §7):
 * the clock ticks every second, scores move now and then, periods run to 'Final' and a new game
 * starts. Returns a stop function.
 */
export function startSimulator(app: FastifyInstance, rng: () => number = Math.random): () => void {
  let games: LiveGame[] | null = null;
  let busy = false;
  let stopped = false;

  async function load(): Promise<LiveGame[]> {
    const rows = await app.db.query<{
      game_key: string;
      fields: Partial<ScoreboardFields>;
      clock_seconds: number | null;
    }>(
      'SELECT game_key, fields, clock_seconds FROM games WHERE uid = $1 ORDER BY time_stamp DESC',
      [DEMO_UID],
    );
    const live: LiveGame[] = [];
    for (const row of rows) {
      const fields = { ...defaultScoreboard, ...row.fields };
      const sport = LIVE[fields.sportID];
      if (!sport || live.some((g) => g.sportID === fields.sportID)) continue;
      live.push({
        gameKey: row.game_key,
        sportID: fields.sportID,
        fields,
        seconds: row.clock_seconds ?? (sport.countUp ? 0 : sport.periodSeconds),
        restIn: 0,
      });
    }
    return live;
  }

  async function step(game: LiveGame): Promise<void> {
    const sport = LIVE[game.sportID]!;
    const period = sport.periods.indexOf(game.fields.gamePeriod);
    if (period === -1) {
      // 'Final' (or anything else): rest a little, then a fresh game starts.
      if (game.restIn-- > 0) return;
      const fresh = {
        gamePeriod: sport.periods[0]!,
        homeScore: 0,
        awayScore: 0,
        homeFouls: 0,
        awayFouls: 0,
        homeShots: 0,
        awayShots: 0,
        homeSaves: 0,
        awaySaves: 0,
      };
      await patch(game, fresh);
      game.seconds = sport.countUp ? 0 : sport.periodSeconds;
      return;
    }
    game.seconds += sport.countUp ? 1 : -1;
    const periodOver = sport.countUp
      ? game.seconds >= sport.periodSeconds * (period + 1)
      : game.seconds <= 0;
    await postClock(app, DEMO_UID, game.gameKey, {
      formattedTime: formatClock(Math.max(0, game.seconds)),
      seconds: Math.max(0, game.seconds),
    });
    if (periodOver) {
      const next = sport.periods[period + 1];
      if (!sport.countUp) game.seconds = sport.periodSeconds;
      if (next) await patch(game, { gamePeriod: next });
      else {
        game.restIn = 30;
        await patch(game, { gamePeriod: 'Final' });
      }
      return;
    }
    // About one score every ten seconds per game.
    if (rng() < 0.1) {
      const home = rng() < 0.5;
      const points = sport.points[Math.floor(rng() * sport.points.length)]!;
      const change: Partial<ScoreboardFields> = home
        ? { homeScore: game.fields.homeScore + points }
        : { awayScore: game.fields.awayScore + points };
      if (game.sportID === 10) {
        Object.assign(
          change,
          home
            ? { homeShots: game.fields.homeShots + 1 }
            : { awayShots: game.fields.awayShots + 1 },
        );
      }
      await patch(game, change);
    } else if (game.sportID === 2 && rng() < 0.03) {
      await patch(
        game,
        rng() < 0.5
          ? { homeFouls: game.fields.homeFouls + 1 }
          : { awayFouls: game.fields.awayFouls + 1 },
      );
    }
  }

  async function patch(game: LiveGame, change: Partial<ScoreboardFields>): Promise<void> {
    game.fields = { ...game.fields, ...change };
    await patchGame(app, DEMO_UID, game.gameKey, change);
  }

  const timer = setInterval(() => {
    // A slow database never piles ticks up: a tick still running skips the next.
    if (busy || stopped) return;
    busy = true;
    void (async () => {
      try {
        games ??= await load();
        for (const game of games) {
          if (stopped) break;
          await step(game);
        }
      } catch (err) {
        app.log.warn({ err }, 'simulator: tick failed');
        games = null; // reload next tick (a game may have been removed)
      } finally {
        busy = false;
      }
    })();
  }, TICK_MS);
  app.log.info('simulator: keeping demo games live');
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
