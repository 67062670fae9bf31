import { z } from 'zod';
import type { BoxLine } from './box-score.ts';
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
  for (const game of games) {
    const sheet = new Map(game.players.map((p) => [p.playerKey, p]));
    for (const line of game.lines) {
      const p = sheet.get(line.player);
      if (!p) continue;
      const prior = players.get(line.player);
      const goals = add(prior?.goals, line.goals);
      const behinds = add(prior?.behinds, line.behinds);
      const hits = add(prior?.hits, line.hits);
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
      });
    }
  }
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
