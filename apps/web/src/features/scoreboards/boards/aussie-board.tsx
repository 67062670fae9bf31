import { BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Aussie Rules and Gaelic: goals, behinds (points) and the total. */
export function AussieBoard(props: BoardProps) {
  const { game, spec } = props;
  const [goals, behinds] = spec.stats;
  return (
    <BoardFrame {...props}>
      {goals && behinds && (
        <p className="board-line">
          {game.homeTeamName} {String(game[goals.home])}.{String(game[behinds.home])} (
          {game.homeScore}) · {game.awayTeamName} {String(game[goals.away])}.
          {String(game[behinds.away])} ({game.awayScore})
        </p>
      )}
    </BoardFrame>
  );
}
