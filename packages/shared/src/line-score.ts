import { countedEvents, foldSteps, type LoggedEvent } from './game-log.ts';
import { boardKind } from './sports.ts';
import type { ScoreboardFields } from './scoreboard.ts';
import {
  currentTennisSet,
  FINAL,
  inTiebreak,
  periodLabels,
  STARTING_SOON,
  type Intent,
  type Team,
} from './scorekeeping.ts';

// DESIGN §10: a game's line score (the score per quarter, half, period, inning or set) is a fold
// of its log, like the scoreboard: the log's counted events are applied in order, and what each
// one changed is credited to the period the game was in when it was made. Voiding a tap folds
// it out of its period as it folds it out of the total. Zod-free: the server folds it for the
// gamedetail: topic, the tests replay real games through it.

/** One team's part of one period: points, and goals and behinds where the sport has them. */
export interface LineCell {
  points: number;
  goals?: number;
  behinds?: number;
}

export interface LinePeriod {
  /** '1'…'12' for innings, 'Q1', '1st Half', 'Set 2'… as the sport names them. */
  label: string;
  /** Null where the team has not played this period yet (an inning's half not reached). */
  home: LineCell | null;
  away: LineCell | null;
  /** Volleyball and tennis: the set being played, not yet over. */
  live?: boolean;
  /** Tennis: the points of the tiebreak that decided the set (7–6 (5) prints the loser's). */
  tiebreak?: { home: number; away: number };
}

export interface LineScore {
  /** How the periods read: points, goals.behinds (points), an inning's runs, a set's score. */
  kind: 'points' | 'goals' | 'innings' | 'sets';
  periods: LinePeriod[];
  /** Baseball's runs, hits and errors per team. */
  rhe?: { home: Rhe; away: Rhe };
}

export interface Rhe {
  runs: number;
  hits: number;
  errors: number;
}

type Side = 'home' | 'away';
const SIDES: readonly Side[] = ['home', 'away'];
const OFF_PERIODS = new Set([STARTING_SOON, FINAL, 'Half Time'].map((p) => p.toLowerCase()));

/** The batting team: the away team bats first, and the possession flag follows the third out. */
const battingTeam = (f: Pick<ScoreboardFields, 'homePossession'>): Team =>
  f.homePossession ? 'home' : 'away';

/** The baseline (the game's first state) starts the fold; it is credited to no period. */
function startOf(start: ScoreboardFields, events: readonly LoggedEvent[]) {
  const counted = countedEvents(events);
  let fields = start;
  let i = 0;
  const first = counted[0];
  if (first && first.body.kind === 'set' && first.id.startsWith('baseline')) {
    fields = { ...fields, ...first.body.values };
    i = 1;
  }
  return { fields, rest: counted.slice(i) };
}

/**
 * The line score the log's counted events make. `start` is the default scoreboard, as for
 * foldGame; the sport is the one the folded game ends with.
 */
export function lineScore(start: ScoreboardFields, events: readonly LoggedEvent[]): LineScore {
  const { fields: first, rest } = startOf(start, events);
  // The fold's own steps: a held tap counts only where a scorer's decision placed it.
  const bodies = new Map(rest.map((e) => [e.id, e.body]));
  const steps: Step[] = foldSteps(first, rest).map((s) => ({
    before: s.before,
    after: s.after,
    intent: bodies.get(s.id) as Intent,
  }));
  const fields = steps.length ? steps[steps.length - 1]!.after : first;
  switch (boardKind(fields.sportID)) {
    case 'baseball':
      return innings(first, steps, fields);
    case 'volleyball':
      return volleyballSets(steps, fields);
    case 'tennis':
      return tennisSets(fields, tiebreaks(steps));
    case 'aussie':
      return byPeriod(first, steps, fields, 'goals');
    default:
      return byPeriod(first, steps, fields, 'points');
  }
}

type Step = { before: ScoreboardFields; after: ScoreboardFields; intent: Intent };

/** Quarters, halves, periods: what each event added, credited to the period it was made in. */
function byPeriod(
  first: ScoreboardFields,
  steps: Step[],
  last: ScoreboardFields,
  kind: 'points' | 'goals',
): LineScore {
  const standard = periodLabels(last.sportID).filter((p) => !OFF_PERIODS.has(p.toLowerCase()));
  // Overtime and extra time show only when the game got there (or scored there).
  const regulation = standard.filter((p) => !/^(OT|Extra Time)$/i.test(p));
  const cells = new Map<string, Record<Side, LineCell>>();
  const order: string[] = [];
  const cellOf = (label: string) => {
    let c = cells.get(label);
    if (!c) {
      c = { home: emptyCell(kind), away: emptyCell(kind) };
      cells.set(label, c);
      order.push(label);
    }
    return c;
  };
  regulation.forEach(cellOf);
  let current: string | null = null;
  const periodOf = (raw: string): string | null => {
    const label = raw.trim();
    if (!label || OFF_PERIODS.has(label.toLowerCase())) return null;
    return standard.find((p) => p.toLowerCase() === label.toLowerCase()) ?? label;
  };
  const reached = (f: ScoreboardFields) => {
    const p = periodOf(f.gamePeriod);
    if (p) {
      current = p;
      cellOf(p);
    }
  };
  reached(first);
  for (const { before, after } of steps) {
    reached(before);
    // A correction made before the start, at half time or after the end is the nearest
    // period's: the one just played, or the first.
    const label = current ?? regulation[0] ?? standard[0] ?? 'Period 1';
    const cell = cellOf(label);
    for (const side of SIDES) {
      const c = cell[side];
      c.points += after[`${side}Score`] - before[`${side}Score`];
      if (kind === 'goals') {
        c.goals! += after[`${side}ScoreGoals`] - before[`${side}ScoreGoals`];
        c.behinds! += after[`${side}ScorePoints`] - before[`${side}ScorePoints`];
      }
    }
    reached(after);
  }
  const inStandardOrder = [
    ...standard.filter((p) => cells.has(p)),
    ...order.filter((p) => !standard.includes(p)),
  ];
  return {
    kind,
    periods: inStandardOrder.map((label) => ({ label, ...cells.get(label)! })),
  };
}

const emptyCell = (kind: 'points' | 'goals'): LineCell =>
  kind === 'goals' ? { points: 0, goals: 0, behinds: 0 } : { points: 0 };

const HALF_INNING = /^(top|bottom)\s+(\d+)/i;

/** Baseball: the half inning a period names (Top 3rd: the away team bats in the 3rd). */
function halfInning(period: string): { inning: number; side: Side } | null {
  const m = HALF_INNING.exec(period.trim());
  if (!m) return null;
  return { inning: Number(m[2]), side: m[1]!.toLowerCase() === 'top' ? 'away' : 'home' };
}

/** Baseball: runs per inning (extra innings as far as they went), and R H E. */
function innings(first: ScoreboardFields, steps: Step[], last: ScoreboardFields): LineScore {
  const runs: Record<Side, number[]> = { home: [], away: [] };
  const rhe: Record<Side, Rhe> = {
    home: { runs: last.homeScore, hits: 0, errors: 0 },
    away: { runs: last.awayScore, hits: 0, errors: 0 },
  };
  let latest = { inning: 1, side: 'away' as Side };
  const reach = (f: ScoreboardFields) => {
    const h = halfInning(f.gamePeriod);
    if (!h) return;
    latest = h;
    runs[h.side][h.inning - 1] ??= 0;
  };
  reach(first);
  for (const { before, after, intent } of steps) {
    reach(before);
    for (const side of SIDES) {
      const delta = after[`${side}Score`] - before[`${side}Score`];
      if (delta === 0) continue;
      // A run is the batting team's in the inning being played; a correction made at the
      // start or the end goes to the latest inning.
      const at = halfInning(before.gamePeriod)?.inning ?? latest.inning;
      runs[side][at - 1] = (runs[side][at - 1] ?? 0) + delta;
    }
    if (intent.kind === 'hit') rhe[battingTeam(before)].hits++;
    if (intent.kind === 'error') rhe[battingTeam(before) === 'home' ? 'away' : 'home'].errors++;
    reach(after);
  }
  const count = Math.max(9, runs.home.length, runs.away.length);
  const periods: LinePeriod[] = Array.from({ length: count }, (_, i) => ({
    label: String(i + 1),
    home: runs.home[i] === undefined ? null : { points: runs.home[i] },
    away: runs.away[i] === undefined ? null : { points: runs.away[i] },
  }));
  return { kind: 'innings', periods, rhe };
}

/** Volleyball: each set's score as it stood when the set was won, and the set being played. */
function volleyballSets(steps: Step[], last: ScoreboardFields): LineScore {
  // Each set won, by the tap that said so. A correction that takes a set from a team (Sets −)
  // takes back the last set it was credited with, so the sets played match the board's.
  const won: { team: Side; home: number; away: number }[] = [];
  for (const { before, after, intent } of steps) {
    if (intent.kind === 'setWon') {
      won.push({ team: intent.team, home: before.homeScore, away: before.awayScore });
      continue;
    }
    for (const team of SIDES) {
      const field = team === 'home' ? 'homeScoreGames' : 'awayScoreGames';
      for (let lost = before[field] - after[field]; lost > 0; lost--) {
        const at = won.map((w) => w.team).lastIndexOf(team);
        if (at >= 0) won.splice(at, 1);
      }
    }
  }
  const periods: LinePeriod[] = won.map((w, i) => ({
    label: `Set ${i + 1}`,
    home: { points: w.home },
    away: { points: w.away },
  }));
  const playing = last.gamePeriod.trim().toLowerCase() !== FINAL.toLowerCase();
  if (playing && (last.homeScore > 0 || last.awayScore > 0 || /^set \d/i.test(last.gamePeriod))) {
    periods.push({
      label: `Set ${periods.length + 1}`,
      home: { points: last.homeScore },
      away: { points: last.awayScore },
      live: true,
    });
  }
  return { kind: 'sets', periods };
}

/** Tennis: each set decided by a tiebreak, with the tiebreak's points, by the point that won it. */
function tiebreaks(steps: Step[]): Map<number, { home: number; away: number }> {
  const out = new Map<number, { home: number; away: number }>();
  for (const { before, after, intent } of steps) {
    if (intent.kind !== 'tennisPoint' || !inTiebreak(before)) continue;
    // Still in it: the point did not decide the set.
    if (after.homeScoreGames !== 0 || after.awayScoreGames !== 0) continue;
    const points = (team: Team) => {
      const p = before[team === 'home' ? 'homeScorePointsTennis' : 'awayScorePointsTennis'];
      return (/^\d+$/.test(p) ? Number(p) : 0) + (intent.team === team ? 1 : 0);
    };
    out.set(currentTennisSet(before), { home: points('home'), away: points('away') });
  }
  return out;
}

/** Tennis: the games of every set played (the scoreboard keeps them), the current one live. */
function tennisSets(
  last: ScoreboardFields,
  decided: Map<number, { home: number; away: number }> = new Map(),
): LineScore {
  const final = last.gamePeriod.trim().toLowerCase() === FINAL.toLowerCase();
  const current = currentTennisSet(last);
  const periods: LinePeriod[] = [];
  for (let n = 1; n <= Math.min(5, Math.max(1, last.maxSets)); n++) {
    const home = last[`homeSet${n}` as keyof ScoreboardFields] as number;
    const away = last[`awaySet${n}` as keyof ScoreboardFields] as number;
    if (n > current || (final && n === current && home + away === 0)) break;
    periods.push({
      label: `Set ${n}`,
      home: { points: home },
      away: { points: away },
      ...(n === current && !final ? { live: true } : {}),
      // A tiebreak's set is won by one game; a later edit of the games drops the tiebreak.
      ...(decided.has(n) && Math.abs(home - away) === 1 ? { tiebreak: decided.get(n) } : {}),
    });
  }
  return { kind: 'sets', periods };
}
