import type { Intent, Team } from './scorekeeping.ts';

// Published results as the taps a scorer makes, for the tests that replay them through the fold
// (unit) and through the real server (integration). The results are official; the order of the
// points within a game, of the games within a set and of the rallies within a volleyball set
// is invented, as no public record used here gives it: the score each set ends at is the point.

/** A tennis set as printed: the games, and the loser's points of a tiebreak that decided it. */
export interface PrintedSet {
  home: number;
  away: number;
  tiebreakLoser?: number;
}

const other = (team: Team): Team => (team === 'home' ? 'away' : 'home');
const point = (team: Team): Intent => ({ kind: 'tennisPoint', team });

/** A game won by `team` from 40–15 (one point lost, so the loser's points show up too). */
const game = (team: Team): Intent[] => [team, other(team), team, team, team].map(point);

/**
 * Points won in turn by each side, so neither pulls away: the one behind at the end (`behind`
 * points of `ahead`'s `total`) never leads by the margin that would end it early.
 */
function inTurn(ahead: Team, total: number, behind: number, unit: (t: Team) => Intent[]) {
  const out: Intent[] = [];
  for (let i = 0; i < behind; i++) out.push(...unit(ahead), ...unit(other(ahead)));
  for (let i = behind; i < total; i++) out.push(...unit(ahead));
  return out;
}

/** The taps of a tennis set: games in turn, then the tiebreak if the set had one. */
export function tennisSet(set: PrintedSet): Intent[] {
  const winner: Team = set.home > set.away ? 'home' : 'away';
  const won = Math.max(set.home, set.away);
  const lost = Math.min(set.home, set.away);
  if (set.tiebreakLoser === undefined) return inTurn(winner, won, lost, game);
  // A tiebreak: games in turn to all square, then the tiebreak's points in turn. A match
  // tiebreak (printed 1–0) is the tiebreak alone, to 10.
  const to = won === 1 && lost === 0 ? 10 : 7;
  const points = Math.max(to, set.tiebreakLoser + 2);
  return [
    ...inTurn(winner, lost, lost, game),
    ...inTurn(winner, points, set.tiebreakLoser, (t) => [point(t)]),
  ];
}

/** A volleyball set's rallies in turn, then the scorer's "Won set" for the winner. */
export function volleyballSet(home: number, away: number): Intent[] {
  const winner: Team = home > away ? 'home' : 'away';
  const rally = (t: Team): Intent[] => [{ kind: 'score', team: t, by: 1 }];
  return [
    ...inTurn(winner, Math.max(home, away), Math.min(home, away), rally),
    { kind: 'setWon', team: winner },
  ];
}

/**
 * The 2019 Wimbledon gentlemen's singles final, Djokovic (home) d. Federer (away),
 * 7–6(5) 1–6 7–6(4) 4–6 13–12(3), best of five with a tiebreak at 12–12 in the fifth set
 * (the first played under that rule).
 */
export const WIMBLEDON_2019: PrintedSet[] = [
  { home: 7, away: 6, tiebreakLoser: 5 },
  { home: 1, away: 6 },
  { home: 7, away: 6, tiebreakLoser: 4 },
  { home: 4, away: 6 },
  { home: 13, away: 12, tiebreakLoser: 3 },
];

/** The Paris 2024 Olympic women's volleyball final: Italy (home) d. USA 25–18 25–20 25–17. */
export const PARIS_2024_VOLLEYBALL: [number, number][] = [
  [25, 18],
  [25, 20],
  [25, 17],
];

/**
 * The Paris 2024 Olympic women's beach volleyball final: Ana Patrícia/Duda of Brazil (home) d.
 * Melissa Humana-Paredes/Brandie Wilkerson of Canada 26–24 12–21 15–10: best of 3, sets to 21,
 * the deciding third to 15.
 */
export const PARIS_2024_BEACH_VOLLEYBALL: [number, number][] = [
  [26, 24],
  [12, 21],
  [15, 10],
];
