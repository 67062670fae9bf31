import { Link, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import {
  scoringSeasonCsv,
  scoringSeasonCsvFileName,
  seasonOfRuns,
  type ScoringSeason,
} from '@sagan/shared/scoring-season';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { downloadText } from '../../lib/download.ts';
import { useScoringSeason } from './api.ts';
import { ColHead } from '../../components/col-head.tsx';
import { PerGameCells } from '../../components/per-game-cells.tsx';
import './teamsheets.css';

/**
 * A team sheet's season of box scores, like the play counter's season view: each player's
 * points (runs and hits in baseball) over the games linked to the sheet, named as those games'
 * copies of the sheet's privacy allow. Its owner's only; anyone else is told it is not found.
 */
export default function ScoringSeasonPage() {
  const { teamKey = '' } = useParams();
  const season = useScoringSeason(teamKey);
  const data = season.data;
  usePageTitle(data ? `${data.teamName}: season points` : 'Season points');

  if (season.error?.message === 'Team sheet not found') return <NotFound what="team sheet" />;
  if (!data) {
    return (
      <section className="page">
        {season.isLoading && <Loading />}
        <ErrorMessage error={season.error} />
      </section>
    );
  }
  return (
    <section className="page scoring-season">
      <h1>{data.teamName}: season points</h1>
      <p className="muted">
        {data.games.length === 0
          ? 'No games are linked to this team sheet yet.'
          : `${data.games.length} ${data.games.length === 1 ? 'game' : 'games'} linked to this team sheet.`}
      </p>
      {data.players.length > 0 && (
        <div className="btn-row">
          <button
            type="button"
            className="btn primary"
            onClick={() =>
              downloadText(scoringSeasonCsvFileName(data.teamName), scoringSeasonCsv(data))
            }
          >
            Export
          </button>
        </div>
      )}
      {data.players.length === 0 ? (
        <p className="season-empty">
          {data.games.length === 0
            ? 'Link this sheet to a team when you score a game, then pick who scored after each score. Their points add up here.'
            : 'Nobody has been named as scoring yet. After a score, pick the player on the scorekeeper and their points add up here.'}
        </p>
      ) : (
        <SeasonTable season={data} />
      )}
      {data.games.length > 0 && (
        <>
          <h2>Games counted</h2>
          <ul className="season-games">
            {data.games.map((g) => (
              <li key={g.gameKey}>
                <Link to={pathTo('scoreboard', { gameKey: g.gameKey })}>
                  {g.gameName || 'Game without a name'}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function SeasonTable({ season }: { season: ScoringSeason }) {
  // Points are runs when every counted game is baseball; hits and goals.behinds show where
  // any player has them.
  const runs = seasonOfRuns(season);
  const hits = season.players.some((p) => p.hits !== undefined);
  const goals = season.players.some((p) => p.goals !== undefined);
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Season points per player">
      <table className="season-table">
        <thead>
          <tr>
            <ColHead className="season-jersey">
              <abbr title="Jersey">#</abbr>
            </ColHead>
            <ColHead>Name</ColHead>
            {goals && (
              <ColHead className="season-num">
                <abbr title="Goals and behinds">G.B</abbr>
              </ColHead>
            )}
            <ColHead className="season-num">{runs ? 'Runs' : 'Points'}</ColHead>
            {hits && <ColHead className="season-num">Hits</ColHead>}
            <ColHead className="season-num">Games</ColHead>
            {season.games.map((g) => (
              <ColHead key={g.gameKey} className="season-num season-game">
                <Link to={pathTo('scoreboard', { gameKey: g.gameKey })}>
                  {g.gameName || 'Game without a name'}
                </Link>
              </ColHead>
            ))}
          </tr>
        </thead>
        <tbody>
          {season.players.map((p) => (
            <tr key={p.key}>
              <td className="season-jersey">{p.jersey}</td>
              <th scope="row" className="season-name">
                {p.name}
              </th>
              {goals && <td className="season-num">{`${p.goals ?? 0}.${p.behinds ?? 0}`}</td>}
              <td className="season-num season-points">{p.points}</td>
              {hits && <td className="season-num">{p.hits ?? 0}</td>}
              <td className="season-num">{p.games}</td>
              <PerGameCells counts={p.perGame} games={season.games} className="season-num" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
