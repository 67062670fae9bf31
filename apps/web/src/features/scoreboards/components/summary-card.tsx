import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { periodStyle } from '@sagan/shared/scoreboard-basics';
import { showsStart } from '@sagan/shared/game-schedule';
import { sportName } from '@sagan/shared/sports';
import type { GameSummary } from '@sagan/shared/scoreboard-views';
import { StartTime } from './start-time.tsx';
import { tennisLineText, type TennisLine } from './tennis-line-text.ts';

/**
 * SPEC §2 summary card: game name, period, sport name, home and away scores; opens the board.
 * 'Final' and 'Starting Soon' are styled apart from a game in play.
 */
/** A team's line: its score, or for tennis the games it won in each set so far. */
function TeamLine({
  game,
  side,
  tennisLine,
}: {
  game: GameSummary;
  side: 'home' | 'away';
  tennisLine?: TennisLine | undefined;
}) {
  const name = side === 'home' ? game.homeTeamName : game.awayTeamName;
  if (tennisLine) return <FullTennisLine name={name} line={tennisLine} />;
  const { tennis } = game;
  if (!tennis) {
    return (
      <span className="summary-team">
        <span className="summary-team-name">{name}</span>
        <span className="summary-score">{side === 'home' ? game.homeScore : game.awayScore}</span>
      </span>
    );
  }
  // The games of each set begun, the current set's in bold; before the first game, the games.
  const sets = tennis.sets.map((s) => s[side]);
  const games = side === 'home' ? tennis.homeGames : tennis.awayGames;
  const current = sets.pop() ?? games;
  return (
    <span className="summary-team">
      <span className="summary-team-name">{name}</span>
      <span className="visually-hidden">Sets {[...sets, current].join(', ')}</span>
      <span className="summary-tennis" aria-hidden="true">
        {sets.map((n, i) => (
          <span key={i} className="summary-set">
            {n}
          </span>
        ))}
        <span className="summary-score">{current}</span>
      </span>
    </span>
  );
}

/**
 * The mini card's and overlay's tennis line, read like the board: the sets played, a set won in
 * a tiebreak as 7–6 (5), the current set's games in bold, then the game's points (or the
 * tiebreak's count, marked TB).
 */
function FullTennisLine({ name, line }: { name: string; line: TennisLine }) {
  const sets = [...line.sets];
  const current = sets.pop();
  return (
    <span className="summary-team">
      <span className="summary-team-name">{name}</span>
      <span className="visually-hidden">{tennisLineText(line)}</span>
      <span className="summary-tennis" aria-hidden="true">
        {sets.map((s, i) => (
          <span key={i} className="summary-set">
            {s.matchTiebreak !== undefined ? `[${s.matchTiebreak}]` : s.games}
            {s.lostTiebreak !== undefined && <sup>({s.lostTiebreak})</sup>}
          </span>
        ))}
        {current && (
          <span className="summary-score">
            {current.matchTiebreak !== undefined ? `[${current.matchTiebreak}]` : current.games}
            {current.lostTiebreak !== undefined && <sup>({current.lostTiebreak})</sup>}
          </span>
        )}
        {line.points !== null && (
          <span className={`summary-points${line.tiebreak ? ' summary-points-tb' : ''}`}>
            {line.tiebreak && <span className="summary-tb">TB</span>}
            {line.points}
          </span>
        )}
      </span>
    </span>
  );
}

export function SummaryCard({
  game,
  newTab = false,
  clock = null,
  tennis,
}: {
  game: GameSummary;
  newTab?: boolean;
  /** The game clock as it shows now (the mini card and overlay); null: none to show. */
  clock?: string | null;
  /** The mini card's and overlay's full tennis lines (sets, tiebreaks, points). */
  tennis?: { home: TennisLine; away: TennisLine } | undefined;
}) {
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
      {showsStart(game) && (
        <span className="summary-start">
          Starts <StartTime at={game.startsAt} />
        </span>
      )}
      {clock && (
        <span className="summary-clock" role="timer" aria-label={`Clock ${clock}`}>
          {clock}
        </span>
      )}
      <span className="summary-sport">{sportName(game.sportID)}</span>
      {game.hidden && (
        <span className="summary-hidden">Hidden by a moderator: only its scorers see it</span>
      )}
      <TeamLine game={game} side="home" tennisLine={tennis?.home} />
      <TeamLine game={game} side="away" tennisLine={tennis?.away} />
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
