import type { ScoreboardFields, ScoreboardPatch } from './scoreboard.ts';
import { FINAL, STARTING_SOON, TENNIS_POINTS } from './scoreboard-basics.ts';

// The scorekeeper's rules: what one tap on a scorekeeping control does to a game. Zod-free, so
// the scorekeeper screen pays for none of it. Both the optimistic display and the request the
// outbox sends are built from the same `applyIntent`, so what the owner sees is what is sent.

export type Team = 'home' | 'away';

/** Fields a tap counts up or down by one (never below 0). */
export const COUNT_FIELDS = [
  'homeFouls',
  'awayFouls',
  'homeShots',
  'awayShots',
  'homeSaves',
  'awaySaves',
  'homeScoreGames',
  'awayScoreGames',
  'ballOn',
  'toGo',
  'down',
  'balls',
  'strikes',
  'outs',
] as const;
export type CountField = (typeof COUNT_FIELDS)[number];

export const FLAG_FIELDS = [
  'homePossession',
  'homeManUp',
  'awayManUp',
  'base1',
  'base2',
  'base3',
] as const;
export type FlagField = (typeof FLAG_FIELDS)[number];

/**
 * One scorekeeping action, as queued: relative ("home +1"), so that taps queued offline each
 * count against whatever state the server has when they are sent.
 */
export type Intent =
  /** Points on the main score (+1, −1, +2, +3...), by a player of the team's sheet if said. */
  | { kind: 'score'; team: Team; by: number; player?: string }
  /** Aussie Rules/Gaelic goals; the total follows. */
  | { kind: 'goal'; team: Team; by: number; player?: string }
  /** Aussie Rules behinds, Gaelic points; the total follows. */
  | { kind: 'behind'; team: Team; by: number; player?: string }
  /**
   * Who scored a scoring tap already made (`target`, which the server finds: this device's
   * last one for `team`; with `tap: 'hit'`, its last hit while `team` batted): the box score
   * credits it to `player`. Changes nothing on the board.
   */
  | { kind: 'scorer'; team: Team; player: string; target?: string; tap?: 'hit' }
  | { kind: 'count'; field: CountField; by: number }
  | { kind: 'toggle'; field: FlagField }
  /** Tennis: a point won by `team` (games, sets and serve follow; undo takes it back). */
  | { kind: 'tennisPoint'; team: Team }
  /** Volleyball: `team` won the set (points reset, next set). */
  | { kind: 'setWon'; team: Team }
  /** Baseball: a ball or strike with the count's consequences (walk, strikeout, side out). */
  | { kind: 'pitch'; call: 'ball' | 'strike' | 'out' }
  /**
   * Baseball: the batter hit safely (the count starts over; the line score counts the hit),
   * the batter named if said. The server stores the batting team with it.
   */
  | { kind: 'hit'; player?: string; team?: Team }
  /** Baseball: the fielding team made an error (the line score counts it against them). */
  | { kind: 'error' }
  | { kind: 'period'; step: 1 | -1 }
  /** Set fields to these values: direct edits, Final, Starting Soon, and undo. */
  | { kind: 'set'; values: ScoreboardPatch };

export { FINAL, STARTING_SOON } from './scoreboard-basics.ts';

// Limits where a count has a natural top: a fifth ball is a walk, a fourth down does not exist.
const COUNT_MAX: Partial<Record<CountField, number>> = {
  down: 4,
  balls: 3,
  strikes: 2,
  outs: 2,
  ballOn: 100,
  toGo: 99,
};

const ordinal = (n: number) => {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10];
  return `${n}${suffix ?? 'th'}`;
};
const range = <T>(n: number, label: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => label(i + 1));

const QUARTERS = [...range(4, (i) => `Q${i}`), 'OT'];
const HALVES = ['1st Half', 'Half Time', '2nd Half', 'Extra Time'];
const BASEBALL_INNINGS = 12;

/**
 * The periods of a sport in order, between 'Starting Soon' and 'Final' (which every sport has).
 * Baseball's innings carry the half ('Top 6th'), as its board has always been fed.
 */
export function periodLabels(sportID: number, maxSets = 5): string[] {
  switch (sportID) {
    case 2: // Basketball
    case 4: // Aussie Rules
    case 5: // Football
    case 10: // Lacrosse
    case 11: // Water Polo
      return QUARTERS;
    case 3: // Soccer
    case 9: // Rugby
    case 13: // Gaelic
      return HALVES;
    case 12: // HockeyIce
      return [...range(3, (i) => `${ordinal(i)} Period`), 'OT'];
    case 6: // Volleyball
      return range(5, (i) => `Set ${i}`);
    case 7: // Baseball
      return range(BASEBALL_INNINGS, (i) => [`Top ${ordinal(i)}`, `Bottom ${ordinal(i)}`]).flat();
    case 8: // Tennis
      return range(Math.min(5, Math.max(1, maxSets)), (i) => `Set ${i}`);
    default:
      return range(4, (i) => `Period ${i}`);
  }
}

/** The period after (step 1) or before (step −1) the current one; an unknown label starts over. */
export function stepPeriod(
  fields: Pick<ScoreboardFields, 'sportID' | 'gamePeriod' | 'maxSets'>,
  step: 1 | -1,
): string {
  const all = [STARTING_SOON, ...periodLabels(fields.sportID, fields.maxSets), FINAL];
  const at = all.findIndex((p) => p.toLowerCase() === fields.gamePeriod.trim().toLowerCase());
  if (at < 0) return step === 1 ? all[1]! : STARTING_SOON;
  return all[Math.min(all.length - 1, Math.max(0, at + step))]!;
}

const side = (team: Team, field: string) =>
  `${team}${field.charAt(0).toUpperCase()}${field.slice(1)}` as keyof ScoreboardFields;
const bump = (value: number, by: number, max = Infinity) => Math.min(max, Math.max(0, value + by));

/** Aussie Rules: goal 6, behind 1; Gaelic: goal 3, point 1. */
export function goalValue(sportID: number): number {
  return sportID === 13 ? 3 : 6;
}

function goalsAndBehinds(
  f: ScoreboardFields,
  team: Team,
  goalsBy: number,
  behindsBy: number,
): ScoreboardPatch {
  const goals = bump(f[side(team, 'scoreGoals')] as number, goalsBy);
  const behinds = bump(f[side(team, 'scorePoints')] as number, behindsBy);
  return {
    [side(team, 'scoreGoals')]: goals,
    [side(team, 'scorePoints')]: behinds,
    [side(team, 'score')]: goals * goalValue(f.sportID) + behinds,
  };
}

const SET_FIELDS = [1, 2, 3, 4, 5] as const;
const setField = (team: Team, n: number) => `${team}Set${n}` as keyof ScoreboardFields;

type TennisRules = Pick<ScoreboardFields, 'maxSets' | 'tennisDecider' | 'tennisNoAd'>;

const bestOf = (f: Pick<ScoreboardFields, 'maxSets'>) => Math.min(5, Math.max(1, f.maxSets));

/**
 * When set `n` goes to a tiebreak: the games each player has when it starts (6–6; 12–12 or
 * 0–0, a match tiebreak, in a deciding set that says so), or null for an advantage set. Also
 * the points that win that tiebreak (7, or 10 in a match tiebreak), by 2.
 */
export function tiebreakRule(
  f: TennisRules,
  n: number,
): { atGames: number; toPoints: number } | null {
  const decider = n === bestOf(f) ? (f.tennisDecider ?? 'tiebreak') : 'tiebreak';
  switch (decider) {
    case 'tiebreak':
      return { atGames: 6, toPoints: 7 };
    case 'tiebreak12':
      return { atGames: 12, toPoints: 7 };
    case 'matchTiebreak':
      return { atGames: 0, toPoints: 10 };
    case 'advantage':
      return null;
  }
}

/**
 * A set is over at 6 games with a lead of 2, or won by its tiebreak (7–6, 13–12, or 1–0 for a
 * match tiebreak).
 */
function setOver(f: TennisRules, n: number, home: number, away: number): boolean {
  const tb = tiebreakRule(f, n);
  if (tb?.atGames === 0) return home + away >= 1;
  if (Math.max(home, away) >= 6 && Math.abs(home - away) >= 2) return true;
  return !!tb && Math.min(home, away) >= tb.atGames && Math.max(home, away) > tb.atGames;
}

/** The set being played: the first one not yet over (1-based), capped at maxSets. */
export function currentTennisSet(f: ScoreboardFields): number {
  const max = bestOf(f);
  for (const n of SET_FIELDS) {
    if (n > max) break;
    if (!setOver(f, n, f[setField('home', n)] as number, f[setField('away', n)] as number))
      return n;
  }
  return max;
}

/** Whether the game being played is a tiebreak (its points counted 1, 2, 3...). */
export function inTiebreak(f: ScoreboardFields): boolean {
  if (f.gamePeriod.trim().toLowerCase() === FINAL.toLowerCase()) return false;
  const tb = tiebreakRule(f, currentTennisSet(f));
  return !!tb && f.homeScoreGames === tb.atGames && f.awayScoreGames === tb.atGames;
}

function setsWon(f: ScoreboardFields, team: Team): number {
  return SET_FIELDS.filter((n) => {
    const h = f[setField('home', n)] as number;
    const a = f[setField('away', n)] as number;
    return n <= bestOf(f) && setOver(f, n, h, a) && (team === 'home' ? h > a : a > h);
  }).length;
}

/** A tiebreak's points as the field holds them ('7'); a stray 15/30/40/AD counts as 0. */
const tiebreakPoints = (p: string) => (/^\d+$/.test(p) ? Number(p) : 0);

function tennisPoint(f: ScoreboardFields, team: Team): ScoreboardPatch {
  const other: Team = team === 'home' ? 'away' : 'home';
  const mine = f[side(team, 'scorePointsTennis')] as string;
  const theirs = f[side(other, 'scorePointsTennis')] as string;
  const pointsField = side(team, 'scorePointsTennis');
  const otherPointsField = side(other, 'scorePointsTennis');
  if (inTiebreak(f)) {
    const won = tiebreakPoints(mine) + 1;
    const lost = tiebreakPoints(theirs);
    const to = tiebreakRule(f, currentTennisSet(f))!.toPoints;
    if (won < to || won - lost < 2) {
      // The serve changes after the first point, then every two points.
      const played = won + lost;
      return {
        [pointsField]: String(won),
        ...(played % 2 === 1 ? { homePossession: !f.homePossession } : {}),
      };
    }
    // The tiebreak decides the set. Who received its first point serves the next set's first
    // game: the serve changed after points 1, 3, 5... of the points before this one.
    const before = won - 1 + lost;
    const firstServerHome = Math.ceil(before / 2) % 2 === 0 ? f.homePossession : !f.homePossession;
    return { ...gameWon(f, team), homePossession: !firstServerHome };
  }
  if (mine === '40' && theirs === 'AD') return { [otherPointsField]: '40' }; // back to deuce
  if (mine === '40' && theirs === '40' && !f.tennisNoAd) return { [pointsField]: 'AD' };
  if (mine !== '40' && mine !== 'AD') {
    const at = TENNIS_POINTS.indexOf(mine as (typeof TENNIS_POINTS)[number]);
    return { [pointsField]: TENNIS_POINTS[Math.max(0, at) + 1] };
  }
  return gameWon(f, team);
}

/** A game won: points reset, the set's games count, the serve changes, the set may end. */
function gameWon(f: ScoreboardFields, team: Team): ScoreboardPatch {
  const other: Team = team === 'home' ? 'away' : 'home';
  const set = currentTennisSet(f);
  const games = (f[side(team, 'scoreGames')] as number) + 1;
  const otherGames = f[side(other, 'scoreGames')] as number;
  const patch: ScoreboardPatch = {
    homeScorePointsTennis: '0',
    awayScorePointsTennis: '0',
    [side(team, 'scoreGames')]: games,
    [setField(team, set)]: games,
    [setField(other, set)]: otherGames,
    homePossession: !f.homePossession,
  };
  const home = team === 'home' ? games : otherGames;
  const away = team === 'home' ? otherGames : games;
  if (setOver(f, set, home, away)) {
    patch.homeScoreGames = 0;
    patch.awayScoreGames = 0;
    const after = { ...f, ...patch } as ScoreboardFields;
    const needed = Math.floor(bestOf(f) / 2) + 1;
    if (setsWon(after, team) >= needed) patch.gamePeriod = FINAL;
    else if (set < f.maxSets) patch.gamePeriod = `Set ${set + 1}`;
  }
  return patch;
}

/** Volleyball: the sets that win the match, 3 of 5 or 2 of 3. */
function volleyballSetsToWin(f: Pick<ScoreboardFields, 'volleyballBestOf'>): number {
  return f.volleyballBestOf === 3 ? 2 : 3;
}

/**
 * Volleyball: the team that has won the set being played by the rules (25 points, 15 in the
 * deciding set, the 5th or the 3rd, with a lead of 2), or null, as when the match is won. The
 * scorer confirms with "Won set".
 */
export function volleyballSetWinner(
  f: Pick<
    ScoreboardFields,
    | 'homeScore'
    | 'awayScore'
    | 'homeScoreGames'
    | 'awayScoreGames'
    | 'setPoints'
    | 'decidingSetPoints'
    | 'volleyballBestOf'
  >,
): Team | null {
  const toWin = volleyballSetsToWin(f);
  if (Math.max(f.homeScoreGames, f.awayScoreGames) >= toWin) return null;
  const deciding = f.homeScoreGames + f.awayScoreGames === toWin * 2 - 2;
  const target = deciding ? (f.decidingSetPoints ?? 15) : (f.setPoints ?? 25);
  const lead = f.homeScore - f.awayScore;
  if (f.homeScore >= target && lead >= 2) return 'home';
  if (f.awayScore >= target && -lead >= 2) return 'away';
  return null;
}

/**
 * Volleyball's Sets ±: a correction of the tally of sets won, so the set being played moves
 * with it, a set back or on (2–1 in Set 4 taken back to 1–1 is Set 3), or to Final when the
 * tally wins the match. From Final the tally says which set reopens. Relative elsewhere, so a
 * match scored from its 2nd set on (tally never entered) stays in step. Before the match
 * starts, and when the tally did not change, the label stays.
 */
function correctedSetPeriod(before: ScoreboardFields, after: ScoreboardFields): ScoreboardPatch {
  const delta =
    after.homeScoreGames + after.awayScoreGames - before.homeScoreGames - before.awayScoreGames;
  const period = before.gamePeriod.trim().toLowerCase();
  const final = period === FINAL.toLowerCase();
  const set = /^set (\d)$/.exec(period);
  if (delta === 0 || (!final && !set)) return {};
  if (Math.max(after.homeScoreGames, after.awayScoreGames) >= volleyballSetsToWin(after)) {
    return { gamePeriod: FINAL };
  }
  const n = set ? Number(set[1]) + delta : after.homeScoreGames + after.awayScoreGames + 1;
  const last = after.volleyballBestOf === 3 ? 3 : 5;
  return { gamePeriod: `Set ${Math.min(last, Math.max(1, n))}` };
}

/** Baseball: the count's consequences (four balls walk, three strikes or an out, three outs). */
function pitch(f: ScoreboardFields, call: 'ball' | 'strike' | 'out'): ScoreboardPatch {
  if (call === 'ball' && f.balls < 3) return { balls: f.balls + 1 };
  if (call === 'strike' && f.strikes < 2) return { strikes: f.strikes + 1 };
  if (call === 'ball') {
    // A walk forces runners on: the batter takes first, a runner forced from third scores.
    const patch: ScoreboardPatch = { balls: 0, strikes: 0, base1: true };
    if (f.base1) {
      patch.base2 = true;
      if (f.base2) {
        patch.base3 = true;
        if (f.base3) {
          const batting: Team = f.homePossession ? 'home' : 'away';
          patch[side(batting, 'score') as 'homeScore'] = (f[side(batting, 'score')] as number) + 1;
        }
      }
    }
    return patch;
  }
  if (f.outs < 2) return { balls: 0, strikes: 0, outs: f.outs + 1 };
  // The third out ends the half inning: the count and bases clear, the other team bats.
  return {
    balls: 0,
    strikes: 0,
    outs: 0,
    base1: false,
    base2: false,
    base3: false,
    homePossession: !f.homePossession,
    gamePeriod: stepPeriod(f, 1),
  };
}

/** The fields an intent changes, with their new values (only the ones that differ). */
export function applyIntent(f: ScoreboardFields, intent: Intent): ScoreboardPatch {
  let patch: ScoreboardPatch;
  switch (intent.kind) {
    case 'score': {
      const field = side(intent.team, 'score');
      patch = { [field]: bump(f[field] as number, intent.by) };
      break;
    }
    case 'goal':
      patch = goalsAndBehinds(f, intent.team, intent.by, 0);
      break;
    case 'behind':
      patch = goalsAndBehinds(f, intent.team, 0, intent.by);
      break;
    case 'count':
      patch = { [intent.field]: bump(f[intent.field], intent.by, COUNT_MAX[intent.field]) };
      if (f.sportID === 6 && /^(home|away)ScoreGames$/.test(intent.field)) {
        patch = { ...patch, ...correctedSetPeriod(f, { ...f, ...patch }) };
      }
      break;
    case 'toggle':
      patch = { [intent.field]: !f[intent.field] };
      break;
    case 'tennisPoint':
      patch = tennisPoint(f, intent.team);
      break;
    case 'setWon': {
      const field = side(intent.team, 'scoreGames');
      const won = (f[field] as number) + 1;
      patch = {
        [field]: won,
        homeScore: 0,
        awayScore: 0,
        // The set that wins the match (the 3rd of 5, the 2nd of 3) ends it: no next set.
        gamePeriod: won >= volleyballSetsToWin(f) ? FINAL : stepPeriod(f, 1),
      };
      break;
    }
    case 'pitch':
      patch = pitch(f, intent.call);
      break;
    case 'hit':
      // A new batter comes up: the count starts over. Runners move as the scorer taps them.
      patch = { balls: 0, strikes: 0 };
      break;
    case 'error':
    case 'scorer':
      patch = {};
      break;
    case 'period':
      patch = { gamePeriod: stepPeriod(f, intent.step) };
      break;
    case 'set':
      patch = intent.values;
      break;
  }
  return changedOnly(f, patch);
}

function changedOnly(f: ScoreboardFields, patch: ScoreboardPatch): ScoreboardPatch {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (f[k as keyof ScoreboardFields] !== v) out[k] = v;
  }
  return out as ScoreboardPatch;
}

/** The values an intent's patch replaces: applying them as a 'set' intent undoes it. */
export function undoValues(f: ScoreboardFields, patch: ScoreboardPatch): ScoreboardPatch {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(patch)) out[k] = f[k as keyof ScoreboardFields];
  return out as ScoreboardPatch;
}
