import { tennisSets, tennisSetsLabel } from '@sagan/shared/scoreboard-boards';
import { BoardFrame, Marker, type BoardProps } from './board-frame.tsx';

/** SPEC §2 Tennis: the sets played, games and points, 'period / maxSets sets', who serves. */
export function TennisBoard(props: BoardProps) {
  const { game } = props;
  const sets = tennisSets(game);
  return (
    <BoardFrame
      {...props}
      period={tennisSetsLabel(game.gamePeriod, game.maxSets)}
      homeMarker={<Marker on={game.homePossession} label="Serving" />}
      awayMarker={<Marker on={!game.homePossession} label="Serving" />}
    >
      {sets.length > 0 && (
        <div className="table-wrap board-sets">
          <table>
            <caption className="visually-hidden">Sets</caption>
            <thead>
              <tr>
                <th scope="col">Player</th>
                {sets.map((s) => (
                  <th scope="col" key={s.set}>
                    Set {s.set}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{game.homeTeamName}</th>
                {sets.map((s) => (
                  <td key={s.set}>{s.home}</td>
                ))}
              </tr>
              <tr>
                <th scope="row">{game.awayTeamName}</th>
                {sets.map((s) => (
                  <td key={s.set}>{s.away}</td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </BoardFrame>
  );
}
