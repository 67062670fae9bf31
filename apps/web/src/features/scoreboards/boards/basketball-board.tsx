import { BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Basketball: Basic plus fouls per team (the spec's stat row). */
export function BasketballBoard(props: BoardProps) {
  return <BoardFrame {...props} />;
}
