// How each sport's game unfolds in the demo: scoring rates and increments, periods, clocks,
// sets, innings and downs, close enough to the real thing that a visitor believes the boards.
// Pure: the simulator (simulator.ts) writes what these rules change.
//
// The demo's time is compressed: a timed sport runs `speed` game seconds per step (one step a
// second in the running demo), so a basketball game lasts about ten minutes instead of two
// hours, and its clock visibly runs faster than a real one. Rates below are per game second,
// so final scores are what the real length of the game gives.
import { defaultScoreboard, type ScoreboardFields } from '@sagan/shared/scoreboard';
import { applyIntent, volleyballSetWinner, type Intent } from '@sagan/shared/scorekeeping';

export type Rng = () => number;
type Side = 'home' | 'away';
type SideCount = 'Score' | 'ScoreGoals' | 'ScorePoints' | 'Shots' | 'Saves' | 'Fouls';

const STARTING_SOON = 'Starting Soon';
export const FINAL = 'Final';

/** A demo game: its board, its clock, and what the board does not show. */
export interface SimGame {
  sportID: number;
  fields: ScoreboardFields;
  /**
   * Seconds on the clock: left in the period (countdown) or played in the game (count-up);
   * null for sports without a clock.
   */
  clock: number | null;
  /** Steps left before play (re)starts: before the start, between periods. */
  waitSteps: number;
  /** American football: yards the team in possession still needs for a touchdown. */
  yardsToGoal: number;
  /**
   * Volleyball and tennis: the scorer's taps that made the board what it is, in order (a test
   * folds them with the shared rules).
   */
  taps: Intent[];
}

const other = (side: Side): Side => (side === 'home' ? 'away' : 'home');
const add = (f: ScoreboardFields, side: Side, what: SideCount, n = 1) => {
  f[`${side}${what}`] += n;
};
const pick = <T>(rng: Rng, weighted: readonly (readonly [T, number])[]): T => {
  let r = rng() * weighted.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of weighted) if ((r -= w) < 0) return value;
  return weighted[weighted.length - 1]![0];
};

/** Steps of 'Starting Soon' before kick-off, and of a break between periods. */
export const START_STEPS = 30;
const BREAK_STEPS = 5;

// ---- Timed sports: a clock per period, events at a rate per game second for each side. ----

interface TimedEvent {
  /** Expected events per side per game second. */
  rate: number;
  apply(f: ScoreboardFields, side: Side, rng: Rng): void;
}

interface TimedSport {
  kind: 'timed';
  periods: readonly string[];
  periodSeconds: number;
  /** Count-up clocks show the game time played (soccer's 0–90'); countdowns the period's left. */
  countUp: boolean;
  /** Game seconds per step. */
  speed: number;
  /** A tied game goes on with this period (repeated) rather than ending. */
  overtime?: { period: string; seconds: number };
  events: TimedEvent[];
  /** Fields that start again each period (basketball's team fouls). */
  perPeriod?: Partial<ScoreboardFields>;
  /** Play that is not a per-side rate (football's downs). */
  play?(g: SimGame, rng: Rng, seconds: number): void;
}

const goalsOf =
  (points: number): TimedEvent['apply'] =>
  (f, side) =>
    add(f, side, 'Score', points);

/** Goals and behinds/points: the score is goals × goalValue + points. */
function goalsAndPoints(goalValue: number, goals: number, points: number, gameSeconds: number) {
  return [
    {
      rate: goals / gameSeconds,
      apply: (f: ScoreboardFields, side: Side) => {
        add(f, side, 'ScoreGoals');
        add(f, side, 'Score', goalValue);
      },
    },
    {
      rate: points / gameSeconds,
      apply: (f: ScoreboardFields, side: Side) => {
        add(f, side, 'ScorePoints');
        add(f, side, 'Score');
      },
    },
  ];
}

/** Shots on goal: some go in, the goalkeeper saves some, the rest miss. */
function shots(perGame: number, gameSeconds: number, goal: number, saved: number): TimedEvent {
  return {
    rate: perGame / gameSeconds,
    apply: (f, side, rng) => {
      add(f, side, 'Shots');
      const r = rng();
      if (r < goal) add(f, side, 'Score');
      else if (r < goal + saved) add(f, other(side), 'Saves');
    },
  };
}

const quarters = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
const halves = ['1st Half', '2nd Half'] as const;

// Rates are per side per game second: expected per game / the game's length in seconds.
const basketball: TimedSport = {
  kind: 'timed',
  periods: quarters,
  periodSeconds: 600,
  countUp: false,
  speed: 4,
  overtime: { period: 'OT', seconds: 300 },
  perPeriod: { homeFouls: 0, awayFouls: 0 },
  events: [
    {
      // About 36 scoring trips a side (~80 points): twos, threes and trips to the line.
      rate: 36 / 2400,
      apply: (f, side, rng) => {
        const kind = pick(rng, [
          ['two', 55],
          ['three', 25],
          ['free throws', 20],
        ] as const);
        const points =
          kind === 'two'
            ? 2
            : kind === 'three'
              ? 3
              : pick(rng, [
                  [2, 60],
                  [1, 30],
                  [0, 10],
                ] as const);
        add(f, side, 'Score', points);
        // A trip to the line is the other side's foul.
        if (kind === 'free throws') add(f, other(side), 'Fouls');
      },
    },
    { rate: 12 / 2400, apply: (f, side) => add(f, side, 'Fouls') },
  ],
};

const soccer: TimedSport = {
  kind: 'timed',
  periods: halves,
  periodSeconds: 2700,
  countUp: true,
  speed: 9,
  events: [{ rate: 1.35 / 5400, apply: goalsOf(1) }],
};

const aussieRules: TimedSport = {
  kind: 'timed',
  periods: quarters,
  periodSeconds: 1200,
  countUp: false,
  speed: 8,
  // About 12 goals and 10 behinds a side: 82 points.
  events: goalsAndPoints(6, 12, 10, 4800),
};

const gaelic: TimedSport = {
  kind: 'timed',
  periods: halves,
  periodSeconds: 2100,
  countUp: true,
  speed: 7,
  // About 1.5 goals and 15 points a side: 1-15 (18).
  events: goalsAndPoints(3, 1.5, 15, 4200),
};

const rugby: TimedSport = {
  kind: 'timed',
  periods: halves,
  periodSeconds: 2400,
  countUp: true,
  speed: 8,
  events: [
    {
      // A try (5), converted seven times in ten (+2).
      rate: 3 / 4800,
      apply: (f, side, rng) => add(f, side, 'Score', rng() < 0.7 ? 7 : 5),
    },
    { rate: 2 / 4800, apply: goalsOf(3) },
  ],
};

const lacrosse: TimedSport = {
  kind: 'timed',
  periods: quarters,
  periodSeconds: 720,
  countUp: false,
  speed: 4,
  events: [
    shots(34, 2880, 0.3, 0.4),
    {
      // A penalty puts the other side a player up until the next whistle.
      rate: 3 / 2880,
      apply: (f, side) => {
        f.homeManUp = side === 'away';
        f.awayManUp = side === 'home';
      },
    },
  ],
  play: (g, rng, seconds) => {
    // A penalty lasts about a minute.
    if ((g.fields.homeManUp || g.fields.awayManUp) && rng() < seconds / 60) {
      g.fields.homeManUp = false;
      g.fields.awayManUp = false;
    }
  },
};

const waterPolo: TimedSport = {
  kind: 'timed',
  periods: quarters,
  periodSeconds: 480,
  countUp: false,
  speed: 3,
  events: [{ rate: 9 / 1920, apply: goalsOf(1) }],
};

const iceHockey: TimedSport = {
  kind: 'timed',
  periods: ['P1', 'P2', 'P3'],
  periodSeconds: 1200,
  countUp: false,
  speed: 6,
  events: [shots(30, 3600, 0.1, 0.6)],
};

const basic: TimedSport = {
  kind: 'timed',
  periods: ['Half 1', 'Half 2'],
  periodSeconds: 1200,
  countUp: false,
  speed: 4,
  events: [{ rate: 14 / 2400, apply: goalsOf(1) }],
};

/** American football: plays from scrimmage, downs and distance, kicks; a play every ~28 s. */
function footballPlay(g: SimGame, rng: Rng, seconds: number): void {
  if (rng() >= seconds / 28) return;
  const f = g.fields;
  const offense: Side = f.homePossession ? 'home' : 'away';
  const turnOver = (yardsToGoal: number) => {
    f.homePossession = !f.homePossession;
    g.yardsToGoal = Math.min(99, Math.max(1, yardsToGoal));
    f.down = 1;
    f.toGo = Math.min(10, g.yardsToGoal);
  };
  if (f.down >= 4) {
    if (g.yardsToGoal <= 35) {
      // Field goal from ~yardsToGoal + 17 yards; misses get harder with distance.
      if (rng() < 0.95 - g.yardsToGoal / 100) {
        add(f, offense, 'Score', 3);
        turnOver(75);
      } else turnOver(100 - g.yardsToGoal);
    } else {
      const landing = g.yardsToGoal - 40;
      turnOver(landing < 20 ? 80 : 100 - landing);
    }
  } else if (rng() < 0.035) {
    turnOver(100 - g.yardsToGoal); // interception or fumble
  } else {
    const gained = rng() < 0.08 ? 20 + Math.floor(rng() * 40) : Math.floor(rng() * 16) - 3;
    g.yardsToGoal -= gained;
    if (g.yardsToGoal <= 0) {
      add(f, offense, 'Score', rng() < 0.94 ? 7 : 6); // touchdown and the extra point
      turnOver(75); // the kick-off
    } else if (gained >= f.toGo) {
      f.down = 1;
      f.toGo = Math.min(10, g.yardsToGoal);
    } else {
      f.down += 1;
      f.toGo -= gained;
    }
  }
  g.yardsToGoal = Math.min(99, g.yardsToGoal);
  // The board's ball-on is a yard line: 1–50 on either half of the field.
  f.ballOn = g.yardsToGoal > 50 ? 100 - g.yardsToGoal : g.yardsToGoal;
}

const football: TimedSport = {
  kind: 'timed',
  periods: quarters,
  periodSeconds: 720,
  countUp: false,
  speed: 4,
  events: [],
  play: footballPlay,
};

// ---- Sports without a clock: each step is one rally, point or pitch (or none). ----

interface UntimedSport {
  kind: 'untimed';
  /** The fields of the first period, at the start. */
  start: Partial<ScoreboardFields>;
  /** One step of play; answers true when the match is over. */
  play(g: SimGame, rng: Rng): boolean;
}

// Volleyball and tennis are played by the shared rules the scorekeeper uses (scorekeeping.ts),
// so the demo's boards show what a scorer's taps would: deuce and advantage, a tiebreak counted
// 1, 2, 3..., sets won at 25 (15 in the deciding set) by two.

/** A scorer's tap, by the shared rules: the board changes as the scorekeeper's would. */
function tap(g: SimGame, intent: Intent): void {
  Object.assign(g.fields, applyIntent(g.fields, intent));
  g.taps.push(intent);
}

const volleyball: UntimedSport = {
  kind: 'untimed',
  start: { gamePeriod: 'Set 1', homePossession: true },
  play: (g, rng) => {
    if (rng() >= 0.5) return false; // a rally takes about two steps
    const f = g.fields;
    const serving: Side = f.homePossession ? 'home' : 'away';
    const winner = rng() < 0.44 ? serving : other(serving); // the receiving side has the edge
    tap(g, { kind: 'score', team: winner, by: 1 });
    if (f.homePossession !== (winner === 'home'))
      tap(g, { kind: 'toggle', field: 'homePossession' });
    const set = volleyballSetWinner(f);
    if (!set) return false;
    tap(g, { kind: 'setWon', team: set });
    g.waitSteps = BREAK_STEPS;
    return f.gamePeriod === FINAL;
  },
};

const tennis: UntimedSport = {
  kind: 'untimed',
  start: { gamePeriod: 'Set 1', maxSets: 3, homePossession: true },
  play: (g, rng) => {
    if (rng() >= 0.5) return false; // a point takes about two steps
    const f = g.fields;
    const serving: Side = f.homePossession ? 'home' : 'away';
    const winner = rng() < 0.62 ? serving : other(serving);
    const period = f.gamePeriod;
    tap(g, { kind: 'tennisPoint', team: winner });
    if (f.gamePeriod !== period) g.waitSteps = BREAK_STEPS;
    return f.gamePeriod === FINAL;
  },
};

const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
/** Extra innings end as a tie after this many, as youth leagues do. */
const LAST_INNING = 12;

/** Runners move up `bases` (a walk only forces them); answers the runs that scored. */
function advanceRunners(f: ScoreboardFields, bases: number, walk: boolean): number {
  if (walk) {
    const forced3 = f.base1 && f.base2 && f.base3;
    f.base3 = f.base3 || (f.base1 && f.base2);
    f.base2 = f.base2 || f.base1;
    f.base1 = true;
    return forced3 ? 1 : 0;
  }
  const runners = [true, f.base1, f.base2, f.base3]; // the batter, then first to third
  let runs = 0;
  const next = [false, false, false, false];
  runners.forEach((on, base) => {
    if (!on) return;
    const to = base + bases;
    if (to >= 4) runs++;
    else next[to] = true;
  });
  [, f.base1, f.base2, f.base3] = next as [boolean, boolean, boolean, boolean];
  return runs;
}

const baseball: UntimedSport = {
  kind: 'untimed',
  start: { gamePeriod: 'Top 1st', homePossession: false },
  play: (g, rng) => {
    const f = g.fields;
    const batting: Side = f.homePossession ? 'home' : 'away';
    const inning = Number(/\d+/.exec(f.gamePeriod)?.[0] ?? 1);
    let out = false;
    let batterDone = false;
    const pitch = pick(rng, [
      ['ball', 36],
      ['strike', 22],
      ['foul', 18],
      ['in play', 24],
    ] as const);
    if (pitch === 'ball') {
      f.balls += 1;
      if (f.balls === 4) {
        add(f, batting, 'Score', advanceRunners(f, 1, true));
        batterDone = true;
      }
    } else if (pitch === 'strike' || (pitch === 'foul' && f.strikes < 2)) {
      f.strikes += 1;
      if (f.strikes === 3) out = batterDone = true;
    } else if (pitch === 'in play') {
      batterDone = true;
      const hit = pick(rng, [
        [0, 66],
        [1, 22],
        [2, 6],
        [3, 1],
        [4, 4],
      ] as const);
      if (hit === 0) out = true;
      else add(f, batting, 'Score', advanceRunners(f, hit, false));
    }
    if (batterDone) {
      f.balls = 0;
      f.strikes = 0;
    }
    if (out) f.outs += 1;
    const homeLeads = f.homeScore > f.awayScore;
    // A walk-off: the home side takes the lead in the last half of the 9th or later.
    if (batting === 'home' && inning >= 9 && homeLeads) return true;
    if (f.outs < 3) return false;
    f.outs = 0;
    f.base1 = f.base2 = f.base3 = false;
    if (batting === 'away') {
      // The home side leading after the top of the 9th need not bat.
      if (inning >= 9 && homeLeads) return true;
      f.gamePeriod = `Bottom ${ordinal(inning)}`;
      f.homePossession = true;
    } else {
      if (inning >= 9 && (f.homeScore !== f.awayScore || inning >= LAST_INNING)) return true;
      f.gamePeriod = `Top ${ordinal(inning + 1)}`;
      f.homePossession = false;
    }
    g.waitSteps = BREAK_STEPS;
    return false;
  },
};

/** Every sport of SPEC §3 with the rules its demo game follows. */
export const SPORT_PLAY: Readonly<Record<number, TimedSport | UntimedSport>> = {
  1: basic,
  2: basketball,
  3: soccer,
  4: aussieRules,
  5: football,
  6: volleyball,
  7: baseball,
  8: tennis,
  9: rugby,
  10: lacrosse,
  11: waterPolo,
  12: iceHockey,
  13: gaelic,
};

const TEAMS = [
  'Eagles', 'Hawks', 'Rovers', 'United', 'Storm', 'Blaze', 'Swans', 'Magpies', 'Bears',
  'Lions', 'Spikers', 'Diggers', 'Cubs', 'Pirates', 'Wolves', 'Bruins', 'Sharks', 'Dolphins',
  'Comets', 'Rockets', 'Falcons', 'Tigers', 'Otters', 'Foxes',
] as const; // prettier-ignore
const PLAYERS = ['A. Rivera', 'K. Osei', 'M. Lindqvist', 'S. Tanaka', 'J. Moreau', 'P. Nair'];

/** A new demo game of this sport, 'Starting Soon'. */
export function newGame(sportID: number, gameName: string, rng: Rng): SimGame {
  const names = SPORT_PLAY[sportID] === tennis ? PLAYERS : TEAMS;
  const home = names[Math.floor(rng() * names.length)]!;
  const rest = names.filter((n) => n !== home);
  const away = rest[Math.floor(rng() * rest.length)]!;
  return {
    sportID,
    fields: {
      ...defaultScoreboard,
      sportID,
      gameName,
      gamePeriod: STARTING_SOON,
      homeTeamName: home,
      awayTeamName: away,
    },
    clock: null,
    waitSteps: START_STEPS,
    yardsToGoal: 75,
    taps: [],
  };
}

/** A stored game taken over as it stands (after a restart, or a seeded game). */
export function resumeGame(fields: ScoreboardFields, clockSeconds: number | null): SimGame {
  const sport = SPORT_PLAY[fields.sportID];
  let clock = clockSeconds;
  if (sport?.kind === 'timed') {
    const period = Math.max(0, sport.periods.indexOf(fields.gamePeriod));
    const low = sport.countUp ? period * sport.periodSeconds : 0;
    const high = sport.countUp ? (period + 1) * sport.periodSeconds : sport.periodSeconds;
    clock = Math.min(high, Math.max(low, clockSeconds ?? (sport.countUp ? low : high)));
  }
  return {
    sportID: fields.sportID,
    fields: { ...fields },
    clock: sport?.kind === 'timed' ? clock : null,
    waitSteps: 0,
    // Football's ball-on does not say whose half it is in: take it as the opponent's.
    yardsToGoal: fields.ballOn > 0 ? fields.ballOn : 75,
    taps: [],
  };
}

function startTimed(
  g: SimGame,
  sport: TimedSport,
  period: string,
  offset: number,
  seconds: number,
) {
  g.fields.gamePeriod = period;
  g.clock = sport.countUp ? offset : seconds;
  Object.assign(g.fields, sport.perPeriod);
}

/** One step of a game (see `speed` for how much game time that is). Final games stay final. */
export function stepGame(g: SimGame, rng: Rng): void {
  const sport = SPORT_PLAY[g.sportID];
  const f = g.fields;
  if (!sport || f.gamePeriod === FINAL) return;
  if (g.waitSteps > 0) {
    g.waitSteps -= 1;
    return;
  }
  if (sport.kind === 'untimed') {
    if (f.gamePeriod === STARTING_SOON) Object.assign(f, sport.start);
    else if (sport.play(g, rng)) f.gamePeriod = FINAL;
    return;
  }
  if (f.gamePeriod === STARTING_SOON) {
    startTimed(g, sport, sport.periods[0]!, 0, sport.periodSeconds);
    if (g.sportID === 5) {
      f.homePossession = rng() < 0.5;
      f.down = 1;
      f.toGo = 10;
      g.yardsToGoal = 75;
      f.ballOn = 25;
    }
    return;
  }
  const periodIndex = sport.periods.indexOf(f.gamePeriod);
  const overtime = periodIndex === -1 && sport.overtime?.period === f.gamePeriod;
  const length = overtime ? sport.overtime!.seconds : sport.periodSeconds;
  const played = sport.countUp ? g.clock! - Math.max(0, periodIndex) * length : length - g.clock!;
  const seconds = Math.min(sport.speed, length - played);
  g.clock = sport.countUp ? g.clock! + seconds : g.clock! - seconds;
  for (const side of ['home', 'away'] as const) {
    for (const event of sport.events) if (rng() < event.rate * seconds) event.apply(f, side, rng);
  }
  sport.play?.(g, rng, seconds);
  if (played + seconds < length) return;
  const next = sport.periods[periodIndex + 1];
  const tied = f.homeScore === f.awayScore;
  if (!overtime && next) {
    startTimed(g, sport, next, (periodIndex + 1) * length, length);
  } else if (sport.overtime && tied) {
    startTimed(g, sport, sport.overtime.period, 0, sport.overtime.seconds);
  } else {
    f.gamePeriod = FINAL;
    return;
  }
  g.waitSteps = BREAK_STEPS;
}
