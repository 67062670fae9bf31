import { z } from 'zod';
import type { BoxLine } from './box-score.ts';
import { csvFile, fileStem } from './csv.ts';
import { boardKind } from './sports.ts';
import { initialsOf } from './teamsheet-privacy.ts';

// A team sheet's season of box scores: every game linked to the sheet, each player's points
// (runs and hits in baseball; goals and behinds where kept) summed, named as the games' copies
// of the sheet's privacy allow, never more than the public sheet shows.

export const scoringSeasonPlayerSchema = z.object({
  key: z.string(),
  jersey: z.string(),
  name: z.string(),
  points: z.number().int(),
  goals: z.number().int().optional(),
  behinds: z.number().int().optional(),
  hits: z.number().int().optional(),
  /** Games in which the player is in the box score. */
  games: z.number().int(),
  /** Points per game, in the order of the season's `games`; null where not in its box score. */
  perGame: z.array(z.number().int().nullable()),
});
export type ScoringSeasonPlayer = z.infer<typeof scoringSeasonPlayerSchema>;

export const scoringSeasonSchema = z.object({
  teamKey: z.string(),
  teamName: z.string(),
  /** The games linked to the sheet, oldest first. */
  games: z.array(
    z.object({
      gameKey: z.string(),
      gameName: z.string(),
      /** The sport says what a point is: a run in baseball. */
      sportID: z.number().int(),
    }),
  ),
  players: z.array(scoringSeasonPlayerSchema),
});
export type ScoringSeason = z.infer<typeof scoringSeasonSchema>;

/** One linked game: its box-score lines for the sheet's side and its copy of the sheet. */
export interface ScoringSeasonGame {
  lines: readonly BoxLine[];
  players: readonly { playerKey: string; jersey: string; playerName: string }[];
  initialsOnly: boolean;
}

const add = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

/**
 * Sums the games (oldest first) per player. A player is named as the latest game's copy of the
 * sheet has them, and by initials if any game's copy asks for it: a total never shows more
 * than one of its games would. A line of a player no longer on a game's copy is left out.
 */
export function scoringTotals(games: readonly ScoringSeasonGame[]): ScoringSeasonPlayer[] {
  const players = new Map<string, ScoringSeasonPlayer & { fullName: string; initials: boolean }>();
  games.forEach((game, index) => {
    const sheet = new Map(game.players.map((p) => [p.playerKey, p]));
    for (const line of game.lines) {
      const p = sheet.get(line.player);
      if (!p) continue;
      const prior = players.get(line.player);
      const goals = add(prior?.goals, line.goals);
      const behinds = add(prior?.behinds, line.behinds);
      const hits = add(prior?.hits, line.hits);
      const perGame = prior?.perGame ?? games.map(() => null);
      perGame[index] = (perGame[index] ?? 0) + line.points;
      players.set(line.player, {
        key: line.player,
        jersey: p.jersey,
        name: '',
        fullName: p.playerName,
        initials: (prior?.initials ?? false) || game.initialsOnly,
        points: (prior?.points ?? 0) + line.points,
        ...(goals === undefined ? {} : { goals }),
        ...(behinds === undefined ? {} : { behinds }),
        ...(hits === undefined ? {} : { hits }),
        games: (prior?.games ?? 0) + 1,
        perGame,
      });
    }
  });
  return [...players.values()]
    .map(({ fullName, initials, ...p }) => ({
      ...p,
      name: initials ? initialsOf(fullName) : fullName,
    }))
    .sort(
      (a, b) =>
        b.points - a.points ||
        (b.hits ?? 0) - (a.hits ?? 0) ||
        a.jersey.localeCompare(b.jersey, undefined, { numeric: true }),
    );
}

/** Whether every counted game is baseball, where a point is a run. */
export const seasonOfRuns = (season: Pick<ScoringSeason, 'games'>) =>
  season.games.every((g) => boardKind(g.sportID) === 'baseball');

/**
 * The season as CSV, like the play counter's: the totals (hits, goals and behinds where kept),
 * then one column of points per game, named by the game (empty: not in its box score).
 */
export function scoringSeasonCsv(season: ScoringSeason): string {
  const hits = season.players.some((p) => p.hits !== undefined);
  const goals = season.players.some((p) => p.goals !== undefined);
  const header = [
    'Jersey',
    'Player',
    'Games',
    seasonOfRuns(season) ? 'Runs' : 'Points',
    ...(hits ? ['Hits'] : []),
    ...(goals ? ['Goals', 'Behinds'] : []),
    ...season.games.map((g) => g.gameName || 'Game without a name'),
  ];
  const rows = season.players.map((p) => [
    p.jersey,
    p.name,
    p.games,
    p.points,
    ...(hits ? [p.hits ?? 0] : []),
    ...(goals ? [p.goals ?? 0, p.behinds ?? 0] : []),
    ...p.perGame.map((n) => (n === null ? '' : n)),
  ]);
  return csvFile([header, ...rows]);
}

/** '{teamName}-Season-Points.csv'. */
export function scoringSeasonCsvFileName(teamName: string): string {
  return `${fileStem(teamName, 'team')}-Season-Points.csv`;
}
