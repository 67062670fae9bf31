import { BoardFact, BoardFrame, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Baseball: bases 1-3, balls, strikes, outs and the possession (batting) marker. */
export function BaseballBoard(props: BoardProps) {
  const { game } = props;
  const bases = [
    { n: 2, on: game.base2, name: 'Second base' },
    { n: 3, on: game.base3, name: 'Third base' },
    { n: 1, on: game.base1, name: 'First base' },
  ];
  return (
    <BoardFrame {...props} possession="Batting">
      <div className="baseball-extras">
        <ul className="diamond" aria-label="Bases">
          {bases.map((b) => (
            <li
              key={b.n}
              className={`base base-${b.n}${b.on ? ' on' : ''}`}
              aria-label={`${b.name} ${b.on ? 'occupied' : 'empty'}`}
            />
          ))}
        </ul>
        <dl className="board-facts">
          <BoardFact label="Balls" value={game.balls} />
          <BoardFact label="Strikes" value={game.strikes} />
          <BoardFact label="Outs" value={game.outs} />
        </dl>
      </div>
    </BoardFrame>
  );
}
