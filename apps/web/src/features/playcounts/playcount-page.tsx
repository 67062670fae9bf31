import { Link } from 'react-router';
import { CoscorersPanel } from '../../components/coscorers/coscorers-panel.tsx';
import { useCoscorer } from '../../components/coscorers/scorer-gate.tsx';
import { PlayCountGate } from './components/play-count-gate.tsx';
import { pathTo } from '@sagan/shared/routes';
import { playCountCsv, playCountCsvFileName } from '@sagan/shared/playcount-csv';
import { NotFound } from '../../components/not-found.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { ExternalLink } from '../../components/external-link.tsx';
import { formatGameDate } from '../../lib/dates.ts';
import { usePatchPlayCount, usePlayCount } from './api.ts';
import { downloadText } from '../../lib/download.ts';
import { RosterTable } from './components/roster-table.tsx';
import { SummaryTable } from './components/summary-table.tsx';
import { MinPlaysForm } from './components/min-plays-form.tsx';
import { SharePanel } from './components/share-panel.tsx';
import { WaitingPage } from './components/waiting-page.tsx';
import { useServiceWorker } from '../../lib/service-worker.ts';
import './playcounts.css';
import { WriteButton } from '../../components/write-button.tsx';

/** SPEC §2 Play count detail, live while Player Counter writes during the game. */
export default function PlayCountPage() {
  return <PlayCountGate screen={PlayCount} />;
}

function PlayCount({ gameKey }: { gameKey: string }) {
  // A co-scorer counts and exports; archiving, the minimum and sharing stay the owner's.
  const coscorer = useCoscorer();
  const { data: game, loading, error, notFound } = usePlayCount(gameKey);
  const archive = usePatchPlayCount(gameKey);
  const minimum = usePatchPlayCount(gameKey);
  usePageTitle(game ? `${formatGameDate(game.gameDate)} ${game.gameName}` : 'Play Count');
  useServiceWorker();

  if (notFound) return <NotFound what="play count" />;
  if (!game) {
    return <WaitingPage loading={loading} error={error} />;
  }

  return (
    <section className="page pc-page">
      <h1 className="pc-title">
        <time className="pc-title-date" dateTime={game.gameDate}>
          {formatGameDate(game.gameDate)}
        </time>{' '}
        {game.gameName}
        {game.archived && <span className="pc-archived">Archived</span>}
      </h1>
      <div className="btn-row">
        <Link className="btn primary" to={pathTo('playcountcount', { gameKey })}>
          Count plays
        </Link>
        {game.teamKey && !coscorer && (
          <Link className="btn" to={pathTo('playcountseason', { teamKey: game.teamKey })}>
            Season
          </Link>
        )}
        <button
          type="button"
          className="btn"
          onClick={() =>
            downloadText(
              playCountCsvFileName(game.gameDate),
              playCountCsv(game.roster, game.minPlays),
            )
          }
        >
          Export
        </button>
        {!coscorer && (
          <WriteButton
            write={archive}
            className="btn"
            onClick={() => archive.mutate({ archived: !game.archived })}
          >
            {game.archived ? 'Restore' : 'Archive'}
          </WriteButton>
        )}
      </div>
      <ErrorMessage error={archive.error} />
      {coscorer && (
        <p className="co-note muted">
          You count this game with {coscorer.ownerName ?? 'its owner'}, who can remove you.
        </p>
      )}

      {!coscorer && (
        <MinPlaysForm
          game={game}
          saving={minimum.isPending}
          error={minimum.error}
          onSave={(minPlays) => minimum.mutateAsync({ minPlays })}
        />
      )}

      {game.roster.length === 0 ? (
        <p className="muted">No players in this game yet.</p>
      ) : (
        <RosterTable game={game} />
      )}

      <h2>Summary</h2>
      <SummaryTable snaps={game.snaps} />

      {!coscorer && (
        <>
          <SharePanel game={game} />
          <section className="card pc-coscorers" aria-labelledby="pc-coscorers-h">
            <h2 id="pc-coscorers-h">Co-scorers</h2>
            <CoscorersPanel kind="playcount" gameKey={gameKey} />
          </section>
        </>
      )}

      <p className="pc-footer">
        Count plays from the sideline with the{' '}
        <ExternalLink to="playerCounter" inline>
          Player Counter app
        </ExternalLink>
        .
      </p>
    </section>
  );
}
