import type { PublicScoreboard } from '@sagan/shared/scoreboard-views';
import { boardKind } from '@sagan/shared/sports';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import { useAuth } from '../../../lib/auth.ts';
import { gameDetailOwnTopic, gameDetailTopic } from '../../../lib/viewer-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import './line-score.css';

/**
 * Who scored (DESIGN §10): each team linked to a team sheet lists its scorers, from the
 * gamedetail: topic, named as the sheet's privacy allows. Nothing shows for a game without a
 * linked sheet, or before anyone is named.
 */
export function BoxScore({ gameKey, game }: { gameKey: string; game: PublicScoreboard }) {
  const box = useNamedBoxScore(gameKey);
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
                      {l.name || <span className="muted">Player</span>}
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
      {teams.some(({ lines }) => lines.some((l) => !l.name)) && (
        <p className="muted box-unnamed">
          Names show once the team&apos;s sheet is published; until then, jersey numbers only.
        </p>
      )}
    </section>
  );
}

type Box = NonNullable<GameDetail['boxScore']>;

/**
 * The public box score, with the names it leaves out (an unpublished sheet's players) filled in
 * from the scorers' own view when the signed-in viewer is one of the game's scorers; anyone
 * else is refused that view and keeps the public one. The public topic is moved by the write
 * itself and the own view follows it a moment later, so the figures are the public topic's and
 * only the names come from the own view.
 */
function useNamedBoxScore(gameKey: string): Box | undefined {
  const { user } = useAuth();
  const box = useLive(gameDetailTopic, gameKey).data?.boxScore;
  const unnamed = (['home', 'away'] as const).some((side) => box?.[side]?.some((l) => !l.name));
  const own = useLive(gameDetailOwnTopic, user && unnamed ? gameKey : null).data?.boxScore;
  if (!box || !own || !unnamed) return box;
  const named: Box = {};
  for (const side of ['home', 'away'] as const) {
    const lines = box[side];
    if (!lines) continue;
    const names = new Map(own[side]?.map((l) => [l.player, l.name]));
    named[side] = lines.map((l) => (l.name ? l : { ...l, name: names.get(l.player) ?? '' }));
  }
  return named;
}
