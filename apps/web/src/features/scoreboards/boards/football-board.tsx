import { downLabel } from '@sagan/shared/scoreboard-boards';
import { BoardFact, BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 American football: Ball On, To Go, Down, and who has the ball. */
export function FootballBoard(props: BoardProps) {
  const { game } = props;
  return (
    <BoardFrame {...props} possession="Has the ball">
      <dl className="board-facts">
        <BoardFact label="Ball On" value={game.ballOn} />
        <BoardFact label="To Go" value={game.toGo} />
        <BoardFact label="Down" value={downLabel(game.down)} />
      </dl>
    </BoardFrame>
  );
}
