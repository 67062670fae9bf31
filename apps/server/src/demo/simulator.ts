import type { FastifyInstance } from 'fastify';
import { formatClock } from '@sagan/shared/game-clock';
import {
  defaultScoreboard,
  type ScoreboardFields,
  type ScoreboardPatch,
} from '@sagan/shared/scoreboard';
import { applyIntent, inTiebreak, type Intent } from '@sagan/shared/scorekeeping';
import { patchGame, recordAction } from '../routes/scoreboards/repo.ts';
import { DEMO_UID } from './seed.ts';
import {
  clockTickChange,
  createGameChange,
  deleteGameChange,
  tagsChange,
} from '../routes/scoreboards/writes.ts';
import { writeChange } from '../lib/write.ts';
import {
  FINAL,
  newGame,
  resumeGame,
  SPORT_PLAY,
  stepGame,
  type Rng,
  type SimGame,
} from './play.ts';
import { sportName } from '@sagan/shared/sports';

const TICK_MS = 1000;
/** Steps between a game's end and its successor's 'Starting Soon'. */
const REST_STEPS = 60;
/** A finished game stays on the dashboard until this many newer ones of its sport finished. */
export const FINISHED_KEPT_PER_SPORT = 2;

export interface SimulatorOptions {
  rng?: Rng;
  /** Steps of play per tick (tests compress time further than the demo does). */
  stepsPerTick?: number;
  /** The sports kept live, one game each (default: every sport). */
  sports?: readonly number[];
}

/**
 * The demo's taps the log keeps as a scorer's: a volleyball set won, and a tennis point of a
 * tiebreak (counted 1, 2, 3… and shown beside its set). The others go as board writes, fewer
 * events for the same boards: the line score needs only the board a set ended on.
 */
const loggedTap = (before: ScoreboardFields, intent: Intent) =>
  intent.kind === 'setWon' || (intent.kind === 'tennisPoint' && inTiebreak(before));

interface Slot {
  gameKey: string;
  game: SimGame;
  /** What the database holds, so a tick writes only what changed. */
  written: ScoreboardFields;
  clockShown: number | null;
  restSteps: number;
}

/**
 * The one place the demo sets a game's clock: today a tick the viewers see each second, through
 * the scorekeeping write the phone app makes.
 */
async function showClock(app: FastifyInstance, gameKey: string, seconds: number): Promise<void> {
  const clock = { formattedTime: formatClock(seconds), seconds };
  await writeChange(app, null, clockTickChange(DEMO_UID, gameKey, clock));
}

function changes(before: ScoreboardFields, after: ScoreboardFields): ScoreboardPatch {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof ScoreboardFields)[]) {
    if (after[key] !== before[key]) patch[key] = after[key];
  }
  return patch as ScoreboardPatch;
}

/**
 * Keeps one demo game of each sport live through the same writes the scorekeeping API makes
 * (DESIGN §7): 'Starting Soon', periods with a running clock, scores as the sport scores
 * (play.ts), 'Final'; then a new game. A game that ends removes the oldest finished one of its
 * sport beyond the newest few, so the demo never grows. `tick()` is one second of the running demo.
 */
export function createSimulator(app: FastifyInstance, options: SimulatorOptions = {}) {
  const { rng = Math.random, stepsPerTick = 1 } = options;
  const sports = options.sports ?? Object.keys(SPORT_PLAY).map(Number);
  let slots: Slot[] | null = null;

  async function start(sportID: number): Promise<Slot> {
    const game = newGame(sportID, `${sportName(sportID)} Live`, rng);
    const { gameKey } = await writeChange(app, null, createGameChange(DEMO_UID, game.fields));
    await writeChange(app, null, tagsChange(DEMO_UID, gameKey, ['Demo']));
    return { gameKey, game, written: { ...game.fields }, clockShown: null, restSteps: REST_STEPS };
  }

  async function load(): Promise<Slot[]> {
    const rows = await app.db.query<{
      game_key: string;
      fields: Partial<ScoreboardFields>;
      clock_seconds: number | null;
    }>(
      'SELECT game_key, fields, clock_seconds FROM games WHERE uid = $1 ORDER BY time_stamp DESC',
      [DEMO_UID],
    );
    const loaded: Slot[] = [];
    for (const sportID of sports) {
      // The newest unfinished game of the sport goes on where it stands (seeded, or from
      // before a restart); without one, a new game is announced.
      const row = rows.find(
        (r) => (r.fields.sportID ?? 1) === sportID && r.fields.gamePeriod !== FINAL,
      );
      if (!row) {
        loaded.push(await start(sportID));
        continue;
      }
      const fields = { ...defaultScoreboard, ...row.fields };
      loaded.push({
        gameKey: row.game_key,
        game: resumeGame(fields, row.clock_seconds),
        written: fields,
        clockShown: row.clock_seconds,
        restSteps: REST_STEPS,
      });
    }
    for (const sportID of sports) await sweep(sportID);
    return loaded;
  }

  /** Finished demo games of the sport beyond the newest few leave the dashboard. */
  async function sweep(sportID: number): Promise<void> {
    const rows = await app.db.query<{ game_key: string }>(
      `SELECT game_key FROM games
       WHERE uid = $1 AND fields->>'gamePeriod' = $2 AND (fields->>'sportID')::int = $3
       ORDER BY time_stamp DESC`,
      [DEMO_UID, FINAL, sportID],
    );
    for (const row of rows.slice(FINISHED_KEPT_PER_SPORT)) {
      await writeChange(app, null, deleteGameChange(DEMO_UID, row.game_key));
    }
  }

  /**
   * The taps the log keeps as the scorer's (`loggedTap`) are written as actions, each after the
   * board as it stood just before it: the line score reads a volleyball set's score and a tennis
   * tiebreak's points from those taps, which a written-over board would not show.
   */
  async function writeTaps(slot: Slot, before: ScoreboardFields, taps: Intent[]) {
    let board = before;
    for (const intent of taps) {
      const after = { ...board, ...applyIntent(board, intent) };
      if (loggedTap(board, intent)) {
        const patch = changes(slot.written, board);
        if (Object.keys(patch).length) await patchGame(app, { uid: DEMO_UID }, slot.gameKey, patch);
        await recordAction(app, { uid: DEMO_UID }, slot.gameKey, intent);
        slot.written = after;
      }
      board = after;
    }
  }

  async function advance(slot: Slot): Promise<Slot> {
    const wasFinal = slot.game.fields.gamePeriod === FINAL;
    for (let i = 0; i < stepsPerTick; i++) {
      if (slot.game.fields.gamePeriod === FINAL && --slot.restSteps <= 0) {
        return start(slot.game.sportID);
      }
      const before = { ...slot.game.fields };
      const made = slot.game.taps.length;
      stepGame(slot.game, rng);
      await writeTaps(slot, before, slot.game.taps.slice(made));
    }
    const patch = changes(slot.written, slot.game.fields);
    if (Object.keys(patch).length) {
      await patchGame(app, { uid: DEMO_UID }, slot.gameKey, patch);
      slot.written = { ...slot.game.fields };
    }
    if (slot.game.clock !== null && slot.game.clock !== slot.clockShown) {
      await showClock(app, slot.gameKey, slot.game.clock);
      slot.clockShown = slot.game.clock;
    }
    if (!wasFinal && slot.game.fields.gamePeriod === FINAL) await sweep(slot.game.sportID);
    return slot;
  }

  return {
    async tick(): Promise<void> {
      try {
        slots ??= await load();
        for (let i = 0; i < slots.length; i++) slots[i] = await advance(slots[i]!);
      } catch (err) {
        slots = null; // reload next tick (a game may have been removed)
        throw err;
      }
    },
  };
}

/**
 * Runs the simulator once a second until the returned function is called. That function
 * resolves once a tick still running has ended, so a server shutting down closes its database
 * only after the simulator's last write (a tick cut off by the close would log a failure).
 */
export function startSimulator(
  app: FastifyInstance,
  options: SimulatorOptions = {},
): () => Promise<void> {
  const simulator = createSimulator(app, options);
  let running: Promise<void> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    // A slow database never piles ticks up: a tick still running skips the next.
    if (running || stopped) return;
    running = simulator
      .tick()
      .catch((err: unknown) => app.log.warn({ err }, 'simulator: tick failed'))
      .finally(() => {
        running = null;
      });
  }, TICK_MS);
  app.log.info('simulator: keeping a demo game of each sport live');
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
