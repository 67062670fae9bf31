/**
 * A season table's cells for one player, one per game in the season's order: what the player
 * made in that game, or a dash for a game they were not in (which is not the same as 0).
 */
export function PerGameCells({
  counts,
  games,
  className,
}: {
  counts: (number | null)[];
  games: { gameKey: string }[];
  className: string;
}) {
  return counts.map((n, i) => (
    <td key={games[i]!.gameKey} className={className}>
      {n ?? '–'}
    </td>
  ));
}
