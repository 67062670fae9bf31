import { BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Lacrosse: man-up flags, shots and saves. */
export function LacrosseBoard(props: BoardProps) {
  const { game } = props;
  return (
    <BoardFrame
      {...props}
      homeMarker={game.homeManUp ? <span className="board-flag">Man Up</span> : null}
      awayMarker={game.awayManUp ? <span className="board-flag">Man Up</span> : null}
    />
  );
}
