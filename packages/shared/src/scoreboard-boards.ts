import type { ScoreboardFields } from './scoreboard.ts';
import { FINAL, STARTING_SOON } from './scoreboard-basics.ts';
import { boardKind, type BoardKind } from './sports.ts';

export type ScoreboardFieldName = keyof ScoreboardFields;

/** A row of the board that pairs a home and an away value ('Fouls 3 | 4'). */
export interface StatRow {
  label: string;
  home: ScoreboardFieldName;
  away: ScoreboardFieldName;
  /** It counts the score (goals, sets...): its first change begins play, as fouls do not. */
  scores?: true;
}

export interface BoardSpec {
  kind: BoardKind;
  /** Whether the board shows the live clock of the clock topic. */
  clock: boolean;
  /** The big score pair under the team names (null: the board has no single score). */
  score: { label: string; home: ScoreboardFieldName; away: ScoreboardFieldName } | null;
  stats: StatRow[];
  /** Game-wide fields that belong to neither team (down, bases, count...). */
  extras: ScoreboardFieldName[];
}

const HEADER: ScoreboardFieldName[] = ['gameName', 'gamePeriod', 'homeTeamName', 'awayTeamName'];
const SCORE = { label: 'Score', home: 'homeScore', away: 'awayScore' } as const;

// SPEC §2 Boards by sport. Where the spec names a quantity but not its field, the choice is
// recorded here once: volleyball sets won are the *Games fields and its points the main score;
// the tennis serving marker and the baseball batting marker are homePossession (true = home).
export const BOARD_SPECS: Readonly<Record<BoardKind, BoardSpec>> = {
  basic: { kind: 'basic', clock: true, score: SCORE, stats: [], extras: [] },
  basketball: {
    kind: 'basketball',
    clock: true,
    score: SCORE,
    stats: [{ label: 'Fouls', home: 'homeFouls', away: 'awayFouls' }],
    extras: [],
  },
  aussie: {
    kind: 'aussie',
    clock: true,
    score: { label: 'Total', home: 'homeScore', away: 'awayScore' },
    stats: [
      { label: 'Goals', home: 'homeScoreGoals', away: 'awayScoreGoals', scores: true },
      { label: 'Behinds', home: 'homeScorePoints', away: 'awayScorePoints', scores: true },
    ],
    extras: [],
  },
  football: {
    kind: 'football',
    clock: true,
    score: SCORE,
    stats: [],
    extras: ['ballOn', 'toGo', 'down', 'homePossession'],
  },
  volleyball: {
    kind: 'volleyball',
    clock: false,
    score: { label: 'Points', home: 'homeScore', away: 'awayScore' },
    stats: [{ label: 'Sets', home: 'homeScoreGames', away: 'awayScoreGames', scores: true }],
    extras: [],
  },
  baseball: {
    kind: 'baseball',
    clock: false,
    score: { label: 'Runs', home: 'homeScore', away: 'awayScore' },
    stats: [],
    extras: ['base1', 'base2', 'base3', 'balls', 'strikes', 'outs', 'homePossession'],
  },
  tennis: {
    kind: 'tennis',
    clock: false,
    score: null,
    stats: [
      { label: 'Games', home: 'homeScoreGames', away: 'awayScoreGames', scores: true },
      {
        label: 'Points',
        home: 'homeScorePointsTennis',
        away: 'awayScorePointsTennis',
        scores: true,
      },
    ],
    extras: ['maxSets', 'homePossession'],
  },
  lacrosse: {
    kind: 'lacrosse',
    clock: true,
    score: SCORE,
    stats: [
      { label: 'Shots', home: 'homeShots', away: 'awayShots' },
      { label: 'Saves', home: 'homeSaves', away: 'awaySaves' },
    ],
    extras: ['homeManUp', 'awayManUp'],
  },
};

const TENNIS_SET_FIELDS: readonly [ScoreboardFieldName, ScoreboardFieldName][] = [
  ['homeSet1', 'awaySet1'],
  ['homeSet2', 'awaySet2'],
  ['homeSet3', 'awaySet3'],
  ['homeSet4', 'awaySet4'],
  ['homeSet5', 'awaySet5'],
];

/** The fields of this board that count the score: the first change to one of them begins play. */
export function scoringFields(kind: BoardKind): ScoreboardFieldName[] {
  const spec = BOARD_SPECS[kind];
  const fields: ScoreboardFieldName[] = spec.score ? [spec.score.home, spec.score.away] : [];
  for (const row of spec.stats) if (row.scores) fields.push(row.home, row.away);
  if (kind === 'tennis') for (const [h, a] of TENNIS_SET_FIELDS) fields.push(h, a);
  return fields;
}

/** Every board's scoring fields: what a scoring event of any sport may move. */
export const SCORING_FIELDS: readonly ScoreboardFieldName[] = [
  ...new Set((Object.keys(BOARD_SPECS) as BoardKind[]).flatMap(scoringFields)),
];

/** The board a game of this sport gets (SPEC §2; Basic for 1, 3, 9, 11, 12 and unknown ids). */
export function boardSpec(sportID: number): BoardSpec {
  const spec = BOARD_SPECS[boardKind(sportID)];
  // SPEC §2: Aussie Rules counts behinds, Gaelic counts points; same board otherwise.
  if (spec.kind === 'aussie' && sportID === 13) {
    return {
      ...spec,
      stats: spec.stats.map((s) => (s.label === 'Behinds' ? { ...s, label: 'Points' } : s)),
    };
  }
  return spec;
}

// What a stat row's field counts, said in full where the board's short row label would mislead
// on a form of its own ('Home sets won', not 'Home score games').
const COUNTS: Partial<Record<BoardKind, Record<string, string>>> = {
  volleyball: { Sets: 'sets won', Points: 'points in this set' },
  tennis: { Games: 'games in this set', Points: 'points in this game' },
};

/**
 * The words for a team's field on this sport's board ('Home sets won', 'Away behinds'), from
 * its score or stat row; null for a field no row names (the caller's own label applies).
 */
export function fieldLabel(field: ScoreboardFieldName, sportID: number): string | null {
  const team = field.startsWith('home') ? 'Home' : field.startsWith('away') ? 'Away' : null;
  if (!team) return null;
  const spec = boardSpec(sportID);
  const rows = spec.score ? [spec.score, ...spec.stats] : spec.stats;
  const row = rows.find((r) => r.home === field || r.away === field);
  if (!row) return null;
  return `${team} ${COUNTS[spec.kind]?.[row.label] ?? row.label.toLowerCase()}`;
}

/** Every scoreboard field a board of this kind reads (the header, score, rows and extras). */
export function boardFields(kind: BoardKind): ScoreboardFieldName[] {
  const spec = BOARD_SPECS[kind];
  const fields: ScoreboardFieldName[] = [...HEADER];
  if (spec.score) fields.push(spec.score.home, spec.score.away);
  for (const row of spec.stats) fields.push(row.home, row.away);
  if (kind === 'tennis') for (const [h, a] of TENNIS_SET_FIELDS) fields.push(h, a);
  fields.push(...spec.extras);
  return [...new Set(fields)];
}

export interface TennisSet {
  set: number;
  home: number;
  away: number;
}

/**
 * The sets a tennis board shows: only those played, never an unplayed 'Set 3 0 0'. A set is
 * played once it has a game, or once the period names it (the set just begun, still 0–0);
 * never beyond maxSets (at most 5).
 */
export function tennisSets(sb: ScoreboardFields): TennisSet[] {
  const max = Math.min(5, Math.max(1, sb.maxSets));
  const sets = TENNIS_SET_FIELDS.slice(0, max).map(([h, a], i) => ({
    set: i + 1,
    home: Number(sb[h]),
    away: Number(sb[a]),
  }));
  const current = /^Set (\d)$/.exec(sb.gamePeriod.trim());
  let shown = current ? Math.min(max, Number(current[1])) : 0;
  for (const s of sets) if (s.home + s.away > 0) shown = Math.max(shown, s.set);
  return sets.slice(0, shown);
}

/**
 * What a tennis summary card shows instead of homeScore/awayScore (always 0 in tennis): the
 * games of each set begun so far, and the games of the current set.
 */
export function tennisSummary(sb: ScoreboardFields): TennisSummary {
  return {
    sets: tennisSets(sb)
      .filter((s) => s.home + s.away > 0)
      .map(({ home, away }) => ({ home, away })),
    homeGames: Number(sb.homeScoreGames),
    awayGames: Number(sb.awayScoreGames),
  };
}

export interface TennisSummary {
  sets: { home: number; away: number }[];
  homeGames: number;
  awayGames: number;
}

/**
 * SPEC §2 tennis: 'period / maxSets sets' while the match is played; before it starts and once
 * it is over the period alone ('Final', not 'Final / 3 sets').
 */
export function tennisSetsLabel(gamePeriod: string, maxSets: number): string {
  if (gamePeriod === FINAL || gamePeriod === STARTING_SOON) return gamePeriod;
  return `${gamePeriod} / ${maxSets} sets`;
}

/** SPEC §2 football: the down as people say it ('3rd'); 0 means no down yet. */
export function downLabel(down: number): string {
  if (down <= 0) return '-';
  const suffix = down === 1 ? 'st' : down === 2 ? 'nd' : down === 3 ? 'rd' : 'th';
  return `${down}${suffix}`;
}
