import { z } from 'zod';
import { csvFile, fileStem } from './csv.ts';
import { metMinimum } from './playcount-minimum.ts';
import type { PlayCountRosterEntry } from './playcount.ts';

// The season view of a team: every play count started from its sheet, summed per player, with
// each game's own minimum-plays rule applied to that game (youth leagues check it per game).

export interface SeasonGameInput {
  gameKey: string;
  gameName: string;
  gameDate: string;
  minPlays: number | null;
  roster: readonly Pick<PlayCountRosterEntry, 'key' | 'jersey' | 'playerName' | 'playCount'>[];
}

export const seasonGameSchema = z.object({
  gameKey: z.string(),
  gameName: z.string(),
  gameDate: z.string(),
  minPlays: z.number().int().nullable(),
});

export const seasonPlayerSchema = z.object({
  key: z.string(),
  jersey: z.string(),
  playerName: z.string(),
  /** Plays per game, in the order of `games`; null where the player was not in that count. */
  perGame: z.array(z.number().int().nullable()),
  plays: z.number().int(),
  /** Games the player was in. */
  games: z.number().int(),
  /** Games with a minimum that the player was in and fell short of it. */
  gamesShort: z.number().int(),
});
export type SeasonPlayer = z.infer<typeof seasonPlayerSchema>;

export const seasonSchema = z.object({
  teamKey: z.string(),
  teamName: z.string(),
  games: z.array(seasonGameSchema),
  players: z.array(seasonPlayerSchema),
});
export type Season = z.infer<typeof seasonSchema>;

/** Jersey numbers in number order ('2' before '10'), letters after, then by name. */
function byJersey(a: SeasonPlayer, b: SeasonPlayer): number {
  return (
    a.jersey.localeCompare(b.jersey, undefined, { numeric: true }) ||
    a.playerName.localeCompare(b.playerName)
  );
}

/**
 * Sums a team's games (oldest first) per player key. A player's jersey and name are the ones of
 * the latest game they were in, so a renamed player is one row.
 */
export function seasonTotals(games: readonly SeasonGameInput[]): SeasonPlayer[] {
  const players = new Map<string, SeasonPlayer>();
  games.forEach((game, index) => {
    for (const entry of game.roster) {
      let player = players.get(entry.key);
      if (!player) {
        player = {
          key: entry.key,
          jersey: entry.jersey,
          playerName: entry.playerName,
          perGame: games.map(() => null),
          plays: 0,
          games: 0,
          gamesShort: 0,
        };
        players.set(entry.key, player);
      }
      player.jersey = entry.jersey;
      player.playerName = entry.playerName;
      player.perGame[index] = (player.perGame[index] ?? 0) + entry.playCount;
      player.plays += entry.playCount;
      player.games += 1;
      if (metMinimum(entry.playCount, game.minPlays) === false) player.gamesShort += 1;
    }
  });
  return [...players.values()].sort(byJersey);
}

export const SEASON_CSV_HEADER = ['Jersey', 'Player', 'Games', 'TotalPlays', 'GamesBelowMinimum'];

/** The season as CSV: the totals, then one column of plays per game (empty: not in it). */
export function seasonCsv(season: Season): string {
  const header = [
    ...SEASON_CSV_HEADER,
    ...season.games.map((g) => `${g.gameDate} ${g.gameName}`.trim()),
  ];
  const rows = season.players.map((p) => [
    p.jersey,
    p.playerName,
    p.games,
    p.plays,
    p.gamesShort,
    ...p.perGame.map((n) => (n === null ? '' : n)),
  ]);
  return csvFile([header, ...rows]);
}

/** '{teamName}-Season-PlayCounts.csv'. */
export function seasonCsvFileName(teamName: string): string {
  return `${fileStem(teamName, 'team')}-Season-PlayCounts.csv`;
}
