import { useParams } from 'react-router';
import { countOf } from '@sagan/shared/count-of';
import { playsStillNeeded, QUARTERS } from '@sagan/shared/playcount-summary';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useSharedPlayCount } from './shared-api.ts';
import { PlayerAvatar } from './components/player-avatar.tsx';
import { WaitingPage } from './components/waiting-page.tsx';
import './playcounts.css';
import { formatGameDate } from '../../lib/dates.ts';

/**
 * A play count as the coach's shared link shows it to parents (DESIGN §9): read-only and live,
 * names and photos as the team sheet's privacy option allows. Once the coach revokes the link
 * the topic turns null and the page says so.
 */
export default function SharedPlayCountPage() {
  const { shareKey = '' } = useParams();
  const { data: game, loading, error, notFound } = useSharedPlayCount(shareKey);
  usePageTitle(game ? `${formatGameDate(game.gameDate)} ${game.gameName}` : 'Play count');

  if (notFound) return <NotFound what="shared play count" />;
  if (!game) {
    return <WaitingPage loading={loading} error={error} />;
  }
  const perQuarter = QUARTERS.map((q) => game.snaps.filter((s) => s.quarter === q).length);

  return (
    <section className="page pc-page pc-shared">
      {game.finished ? (
        <p className="pc-live-badge pc-final-badge">Final play count</p>
      ) : (
        <p className="pc-live-badge">
          <span aria-hidden="true" className="pc-live-dot" /> Live play count
        </p>
      )}
      <h1 className="pc-title">
        <time className="pc-title-date" dateTime={game.gameDate}>
          {formatGameDate(game.gameDate)}
        </time>{' '}
        {game.gameName}
      </h1>
      {game.teamName && <p className="muted">{game.teamName}</p>}
      <p className="pc-shared-summary">
        {game.snaps.length} {game.snaps.length === 1 ? 'snap' : 'snaps'} ·{' '}
        {QUARTERS.map((q, i) => `Q${q} ${perQuarter[i]}`).join(' · ')}
        {game.minPlays !== null && ` · minimum ${countOf(game.minPlays, 'play')}`}
      </p>
      <div className="table-wrap">
        <table className="pc-roster pc-shared-table">
          <thead>
            <tr>
              <th scope="col">Jersey</th>
              <th scope="col">Name</th>
              <th scope="col" className="pc-num">
                Plays
              </th>
            </tr>
          </thead>
          <tbody>
            {game.roster.map((p) => {
              const needs = playsStillNeeded(p.playCount, game.minPlays);
              return (
                <tr key={p.key} className={needs ? 'pc-below' : undefined}>
                  <td>{p.jersey}</td>
                  <th scope="row">
                    <span className="pc-player">
                      <PlayerAvatar imageURL={p.imageURL} />
                      <span>{p.playerName}</span>
                    </span>
                  </th>
                  <td className="pc-num">
                    <span className="pc-plays">{p.playCount}</span>
                    {needs > 0 && <span className="pc-below-badge">needs {needs}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="muted pc-footer">
        {game.finished
          ? 'Read-only. The coach finished this count.'
          : 'Read-only. It updates by itself while the coach counts.'}
      </p>
    </section>
  );
}
