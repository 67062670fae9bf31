import { useState } from 'react';
import { Link } from 'react-router';
import { visiblePlayCounts } from '@sagan/shared/playcount';
import { pathTo } from '@sagan/shared/routes';
import { Loading } from '../../components/loading.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { ExternalLink } from '../../components/external-link.tsx';
import { formatGameDate } from '../../lib/dates.ts';
import { useAuth } from '../../lib/auth.ts';
import { useMyPlayCounts } from './api.ts';
import { ScoringList } from '../../components/coscorers/scoring-list.tsx';
import './playcounts.css';

/** SPEC §2 Play counts list. */
export default function PlayCountsPage() {
  usePageTitle('Play Counts');
  const { user } = useAuth();
  const { data, loading, error } = useMyPlayCounts(user);
  // SPEC §9: archived games are hidden until the coach asks for them.
  const [showArchived, setShowArchived] = useState(false);
  const games = data ? visiblePlayCounts(data, showArchived) : [];
  const archivedCount = data?.filter((g) => g.archived).length ?? 0;

  return (
    <section className="page pc-page">
      <h1>Play Counts</h1>
      <p className="muted">
        These play counts were created in the Player Counter app on your phone (sign in there with
        the same account to see your games here), or counted right here from one of your team
        sheets.
      </p>
      <div className="btn-row">
        <Link className="btn primary" to={pathTo('playcountnew')}>
          New play count
        </Link>
      </div>
      <div className="pc-list-head">
        <h2>My Play Counts</h2>
        <button
          type="button"
          className="btn"
          aria-pressed={showArchived}
          onClick={() => setShowArchived((v) => !v)}
        >
          {showArchived ? 'Hide Archived' : 'Show Archived'}
        </button>
      </div>
      {loading && <Loading />}
      <ErrorMessage error={error} />
      {data && games.length === 0 && (
        <p className="muted pc-empty">
          {data.length === 0 ? (
            <>
              No play counts yet. Count plays during a game with the{' '}
              <ExternalLink to="playerCounter" inline>
                Player Counter app
              </ExternalLink>
              , and they appear here live.
            </>
          ) : archivedCount === 1 ? (
            'Your one play count is archived.'
          ) : (
            `All ${archivedCount} of your play counts are archived.`
          )}
        </p>
      )}
      {games.length > 0 && (
        <ul className="pc-list">
          {games.map((g) => (
            <li key={g.gameKey} className="card pc-item">
              <div className="pc-item-text">
                <span className="pc-item-name">{g.gameName}</span>
                <time className="muted pc-item-date" dateTime={g.gameDate}>
                  {formatGameDate(g.gameDate)}
                </time>
                {g.archived && <span className="pc-archived">Archived</span>}
              </div>
              <Link
                className="btn primary"
                to={pathTo('playcount', { gameKey: g.gameKey })}
                aria-label={`View ${g.gameName} ${formatGameDate(g.gameDate)}`}
              >
                View
              </Link>
            </li>
          ))}
        </ul>
      )}
      <ScoringList kind="playcount" uid={user?.uid ?? null} />
    </section>
  );
}
