import { useParams } from 'react-router';
import { seasonCsv, seasonCsvFileName } from '@sagan/shared/playcount-season';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useSeason } from './api.ts';
import { downloadText } from '../../lib/download.ts';
import { WaitingPage } from './components/waiting-page.tsx';
import { JerseyNameHeaders } from './components/roster-table.tsx';
import './playcounts.css';
import { formatGameDate } from '../../lib/dates.ts';
import { ColHead } from '../../components/col-head.tsx';
import { PerGameCells } from '../../components/per-game-cells.tsx';

/**
 * A team's season: plays per player summed over the team's play counts, and in how many games
 * each fell short of that game's minimum. Counts made in the phone app have no team and are
 * not part of it.
 */
export default function SeasonPage() {
  const { teamKey = '' } = useParams();
  const season = useSeason(teamKey);
  const data = season.data;
  usePageTitle(data ? `${data.teamName}: season` : 'Season');

  if (season.error?.message === 'Team sheet not found') return <NotFound what="team sheet" />;
  if (!data) {
    return <WaitingPage loading={season.isLoading} error={season.error} />;
  }
  const withMinimum = data.games.filter((g) => g.minPlays !== null).length;

  return (
    <section className="page pc-page">
      <h1>{data.teamName}: season</h1>
      <p className="muted">
        {data.games.length} {data.games.length === 1 ? 'play count' : 'play counts'} of this team
        {withMinimum > 0 && `, ${withMinimum} with a minimum`}.
      </p>
      <div className="btn-row">
        <button
          type="button"
          className="btn primary"
          disabled={data.players.length === 0}
          onClick={() => downloadText(seasonCsvFileName(data.teamName), seasonCsv(data))}
        >
          Export
        </button>
      </div>
      {data.players.length === 0 ? (
        <p className="muted">No play counts of this team yet.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Season plays per player">
          <table className="pc-roster pc-season">
            <thead>
              <tr>
                <JerseyNameHeaders />
                {/* Plays first: the column a parent comes for, on screen at 320 px. */}
                <ColHead className="pc-num">Plays</ColHead>
                <ColHead className="pc-num">Games</ColHead>
                <ColHead className="pc-num">Below minimum</ColHead>
                {data.games.map((g) => (
                  <ColHead key={g.gameKey} className="pc-num pc-season-game">
                    <span className="pc-snap-count">{formatGameDate(g.gameDate)}</span>
                    <span className="pc-snap-group">{g.gameName}</span>
                  </ColHead>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.players.map((p) => (
                <tr key={p.key} className={p.gamesShort ? 'pc-below' : undefined}>
                  <td className="pc-sticky pc-jersey">{p.jersey}</td>
                  <th scope="row" className="pc-sticky pc-name">
                    {p.playerName}
                  </th>
                  <td className="pc-num">
                    <span className="pc-plays">{p.plays}</span>
                  </td>
                  <td className="pc-num">{p.games}</td>
                  <td className="pc-num">
                    {p.gamesShort > 0 ? (
                      <span className="pc-below-badge">
                        {p.gamesShort} {p.gamesShort === 1 ? 'game' : 'games'}
                      </span>
                    ) : (
                      0
                    )}
                  </td>
                  <PerGameCells counts={p.perGame} games={data.games} className="pc-num" />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
