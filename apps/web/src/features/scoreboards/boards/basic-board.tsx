import { BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Basic: name, period, clock, team names and scores. */
export function BasicBoard(props: BoardProps) {
  return <BoardFrame {...props} />;
}
