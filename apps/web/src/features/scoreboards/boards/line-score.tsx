import type { PublicScoreboard } from '@sagan/shared/scoreboard-views';
import type { GameDetail } from '@sagan/shared/topics/game-detail';
import { gameDetailTopic } from '../../../lib/viewer-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import './line-score.css';

type Line = GameDetail['lineScore'];
type Cell = Line['periods'][number]['home'];

/** How a cell reads: runs or points; goals.behinds for Aussie Rules and Gaelic; – unplayed. */
function cellText(kind: Line['kind'], cell: Cell): string {
  if (!cell) return '–';
  if (kind === 'goals') return `${cell.goals ?? 0}.${cell.behinds ?? 0}`;
  return String(cell.points);
}

/** A period's heading as printed: innings by number, quarters as Q1, halves as 1st, sets as S1. */
function shortLabel(label: string): string {
  return label
    .replace(/^Set (\d+)$/, 'S$1')
    .replace(/^(\d+)(st|nd|rd|th) (Half|Period)$/, '$1$2')
    .replace(/^Extra Time$/, 'ET');
}

/**
 * The line score (DESIGN §10): each period's score from the gamedetail: topic, folded from the
 * log. Wide tables (12 innings, 5 sets) scroll inside their box with the team names held.
 */
export function LineScore({ gameKey, game }: { gameKey: string; game: PublicScoreboard }) {
  const detail = useLive(gameDetailTopic, gameKey);
  const line = detail.data?.lineScore;
  if (!line || !line.periods.length) return null;
  const away = { side: 'away' as const, name: game.awayTeamName, total: game.awayScore };
  const home = { side: 'home' as const, name: game.homeTeamName, total: game.homeScore };
  // Baseball prints the visitors on top, as they bat first; the other sports home first.
  const teams = line.kind === 'innings' ? [away, home] : [home, away];
  const goals = line.kind === 'goals';
  const sets = line.kind === 'sets';
  return (
    <section className="line-score" aria-labelledby="line-score-h">
      <h2 id="line-score-h" className="visually-hidden">
        Line score
      </h2>
      <div className="line-score-scroll" tabIndex={0} role="region" aria-label="Line score">
        <table>
          <thead>
            <tr>
              <th scope="col" className="line-team">
                <span className="visually-hidden">Team</span>
              </th>
              {line.periods.map((p) => (
                <th key={p.label} scope="col" className={p.live ? 'line-live' : undefined}>
                  <abbr title={p.label}>{shortLabel(p.label)}</abbr>
                </th>
              ))}
              {line.rhe ? (
                <>
                  <th scope="col" className="line-total">
                    <abbr title="Runs">R</abbr>
                  </th>
                  <th scope="col" className="line-total">
                    <abbr title="Hits">H</abbr>
                  </th>
                  <th scope="col" className="line-total">
                    <abbr title="Errors">E</abbr>
                  </th>
                </>
              ) : sets ? null : (
                <th scope="col" className="line-total">
                  <abbr title="Total">T</abbr>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {teams.map(({ side, name, total }) => {
              const rhe = line.rhe?.[side];
              const g = goals ? `${game[`${side}ScoreGoals`]}.${game[`${side}ScorePoints`]}` : '';
              return (
                <tr key={side}>
                  <th scope="row" className="line-team">
                    {name}
                  </th>
                  {line.periods.map((p) => (
                    <td key={p.label} className={p.live ? 'line-live' : undefined}>
                      {cellText(line.kind, p[side])}
                    </td>
                  ))}
                  {rhe ? (
                    <>
                      <td className="line-total">{rhe.runs}</td>
                      <td className="line-total">{rhe.hits}</td>
                      <td className="line-total">{rhe.errors}</td>
                    </>
                  ) : sets ? null : (
                    <td className="line-total">{goals ? `${g} (${total})` : total}</td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
