import { FINAL } from '@sagan/shared/scoreboard-basics';
import { tennisSets, tennisSetsLabel } from '@sagan/shared/scoreboard-boards';
import { inTiebreak, tiebreakRule } from '@sagan/shared/scorekeeping';
import { gameDetailTopic } from '../../../lib/viewer-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import { BoardFrame, type BoardProps } from './board-frame.tsx';

type Points = { home: number; away: number };

/**
 * A set's games as printed: a set won by a tiebreak shows the loser's tiebreak points, 7–6 (5);
 * a 10-point match tiebreak, played instead of the set, shows its points in brackets, [10–8].
 */
function SetCell({
  games,
  tiebreak,
  mine,
  theirs,
  match,
}: {
  games: number;
  tiebreak: Points | undefined;
  mine: 'home' | 'away';
  theirs: 'home' | 'away';
  match: boolean;
}) {
  if (!tiebreak) return <td>{games}</td>;
  if (match) return <td>[{tiebreak[mine]}]</td>;
  const lost = tiebreak[mine] < tiebreak[theirs];
  return (
    <td>
      {games}
      {lost && <sup className="board-tiebreak"> ({tiebreak[mine]})</sup>}
    </td>
  );
}

/** SPEC §2 Tennis: the sets played, games and points, 'period / maxSets sets', who serves. */
export function TennisBoard(props: BoardProps) {
  const { game, spec } = props;
  const sets = tennisSets(game);
  // The tiebreaks' points are folded from the log, on the line score's topic.
  const detail = useLive(gameDetailTopic, game.gameKey || null);
  const tiebreaks = new Map<string, Points>();
  for (const p of detail.data?.lineScore.periods ?? [])
    if (p.tiebreak) tiebreaks.set(p.label, p.tiebreak);
  // A finished match is its sets: the game and point being played, and who serves, are over.
  const over = game.gamePeriod === FINAL;
  // In a tiebreak the points row counts 1, 2, 3…, and says so.
  const tiebreakNow = inTiebreak(game);
  const shown = over
    ? { ...spec, stats: [] }
    : tiebreakNow
      ? {
          ...spec,
          stats: spec.stats.map((r) => (r.label === 'Points' ? { ...r, label: 'Tiebreak' } : r)),
        }
      : spec;
  return (
    <BoardFrame
      {...props}
      spec={shown}
      period={tennisSetsLabel(game.gamePeriod, game.maxSets)}
      possession={over ? undefined : 'Serving'}
    >
      {sets.length > 0 && (
        <div className="table-wrap board-sets">
          <table>
            <caption className="visually-hidden">Sets</caption>
            <thead>
              <tr>
                <th scope="col">Player</th>
                {sets.map((s) => (
                  <th scope="col" key={s.set} aria-label={`Set ${s.set}`}>
                    {/* On a phone five sets fit as S1…S5. */}
                    <span className="board-set-word">Set </span>
                    <span className="board-set-short">S</span>
                    {s.set}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(['home', 'away'] as const).map((side) => (
                <tr key={side}>
                  <th scope="row">{side === 'home' ? game.homeTeamName : game.awayTeamName}</th>
                  {sets.map((s) => (
                    <SetCell
                      key={s.set}
                      games={s[side]}
                      tiebreak={tiebreaks.get(`Set ${s.set}`)}
                      mine={side}
                      theirs={side === 'home' ? 'away' : 'home'}
                      match={tiebreakRule(game, s.set)?.atGames === 0}
                    />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </BoardFrame>
  );
}
