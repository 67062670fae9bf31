import type { PublicScoreboard } from '@sagan/shared/scoreboard-views';
import { boardKind } from '@sagan/shared/sports';
import { gameDetailTopic } from '../../../lib/viewer-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import './line-score.css';

/**
 * Who scored (DESIGN §10): each team linked to a team sheet lists its scorers, from the
 * gamedetail: topic, named as the sheet's privacy allows. Nothing shows for a game without a
 * linked sheet, or before anyone is named.
 */
export function BoxScore({ gameKey, game }: { gameKey: string; game: PublicScoreboard }) {
  const detail = useLive(gameDetailTopic, gameKey);
  const box = detail.data?.boxScore;
  const teams = (['home', 'away'] as const).flatMap((side) => {
    const lines = box?.[side];
    const name = side === 'home' ? game.homeTeamName : game.awayTeamName;
    return lines?.length ? [{ side, name, lines }] : [];
  });
  if (!teams.length) return null;
  // Baseball's box score is its batters' runs and hits.
  const baseball = boardKind(game.sportID) === 'baseball';
  return (
    <section className="box-score" aria-labelledby="box-score-h">
      <h2 id="box-score-h">{baseball ? 'Batters' : 'Scorers'}</h2>
      <div className="box-score-teams">
        {teams.map(({ side, name, lines }) => {
          const goals = lines.some((l) => l.goals !== undefined);
          return (
            <table key={side} className="box-score-team">
              <caption>{name}</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <abbr title="Jersey">#</abbr>
                  </th>
                  <th scope="col" className="box-name">
                    Player
                  </th>
                  {goals && (
                    <th scope="col">
                      <abbr title="Goals and behinds">G.B</abbr>
                    </th>
                  )}
                  <th scope="col">
                    {baseball ? <abbr title="Runs">R</abbr> : <abbr title="Points">Pts</abbr>}
                  </th>
                  {baseball && (
                    <th scope="col">
                      <abbr title="Hits">H</abbr>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {lines.map((l) => (
                  <tr key={l.player}>
                    <td>{l.jersey}</td>
                    <th scope="row" className="box-name">
                      {l.name}
                    </th>
                    {goals && <td>{`${l.goals ?? 0}.${l.behinds ?? 0}`}</td>}
                    <td className="box-points">{l.points}</td>
                    {baseball && <td className="box-points">{l.hits ?? 0}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        })}
      </div>
    </section>
  );
}
