import { BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Volleyball: sets and points. */
export function VolleyballBoard(props: BoardProps) {
  return <BoardFrame {...props} />;
}
