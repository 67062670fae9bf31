import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { periodStyle } from '@sagan/shared/scoreboard';
import { sportName } from '@sagan/shared/sports';
import type { GameSummary } from '@sagan/shared/scoreboard-views';

/**
 * SPEC §2 summary card: game name, period, sport name, home and away scores; opens the board.
 * 'Final' and 'Starting Soon' are styled apart from a game in play.
 */
export function SummaryCard({ game, newTab = false }: { game: GameSummary; newTab?: boolean }) {
  const style = periodStyle(game.gamePeriod);
  return (
    <Link
      to={pathTo('scoreboard', { gameKey: game.gameKey })}
      className={`summary-card period-${style}`}
      data-period-style={style}
      {...(newTab ? { target: '_blank', rel: 'noopener' } : {})}
    >
      <span className="summary-head">
        <span className="summary-name">{game.gameName}</span>
        <span className="summary-period">{game.gamePeriod}</span>
      </span>
      <span className="summary-sport">{sportName(game.sportID)}</span>
      <span className="summary-team">
        <span>{game.homeTeamName}</span>
        <span className="summary-score">{game.homeScore}</span>
      </span>
      <span className="summary-team">
        <span>{game.awayTeamName}</span>
        <span className="summary-score">{game.awayScore}</span>
      </span>
    </Link>
  );
}

export function SummaryList({
  games,
  empty,
  label,
  scoreButtons = false,
}: {
  games: GameSummary[];
  empty: string;
  label: string;
  /** The owner's list: each card gets a Score button to its scorekeeper. */
  scoreButtons?: boolean;
}) {
  if (!games.length) return <p className="muted">{empty}</p>;
  return (
    <ul className="summary-list" aria-label={label}>
      {games.map((g) => (
        <li key={g.gameKey} className={scoreButtons ? 'with-score-button' : undefined}>
          <SummaryCard game={g} />
          {scoreButtons && (
            <Link
              className="btn score-button"
              to={pathTo('scoregame', { gameKey: g.gameKey })}
              aria-label={`Score ${g.gameName}`}
            >
              Score
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
