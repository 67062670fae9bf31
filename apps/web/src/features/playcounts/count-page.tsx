import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useCoscorer } from '../../components/coscorers/scorer-gate.tsx';
import { PlayCountGate } from './components/play-count-gate.tsx';
import { countOf } from '@sagan/shared/count-of';
import { pathTo } from '@sagan/shared/routes';
import { QUARTERS } from '@sagan/shared/playcount-summary';
import { fieldCountWarning, lineupOf } from '@sagan/shared/playcount-sideline';
import { playsStillNeeded } from '@sagan/shared/playcount-summary';
import type { PlayCountRosterEntry } from '@sagan/shared/playcount';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { usePatchPlayCount, usePlayCount, useTeamSheet } from './api.ts';
import { useOnField, useSidelineOutbox, withPending } from './sideline.ts';
import { PlayerAvatar } from './components/player-avatar.tsx';
import { WaitingPage } from './components/waiting-page.tsx';
import { useServiceWorker } from '../../lib/service-worker.ts';
import './playcounts.css';
import { formatGameDate } from '../../lib/dates.ts';

/**
 * The sideline play counter (DESIGN §9): who is on the field, the quarter, one big Snap button
 * that counts a play for each of them, undo, and each player's plays against the minimum.
 * Phone-first: one hand, big targets, the Snap button always within the thumb's reach. Snaps
 * go through the outbox, so counting goes on without a network and catches up after.
 */
export default function CountPage() {
  return <PlayCountGate screen={Counter} />;
}

function Counter({ gameKey }: { gameKey: string }) {
  // Finishing a count is the owner's; a co-scorer counts.
  const coscorer = useCoscorer();
  const { data: live, loading, error, notFound, seq } = usePlayCount(gameKey);
  const box = useSidelineOutbox(gameKey, live, seq);
  const sheet = useTeamSheet(live?.teamKey ?? null);
  const [onField, setOnField] = useOnField(gameKey, live);
  const [quarter, setQuarter] = useState(1);
  const [groupName, setGroupName] = useState('');
  const [lineupKey, setLineupKey] = useState('');
  const lineupId = useId();
  const finish = usePatchPlayCount(gameKey);
  usePageTitle(live ? `Count: ${live.gameName}` : 'Count plays');
  useServiceWorker();

  if (notFound) return <NotFound what="play count" />;
  if (!live) {
    return <WaitingPage loading={loading} error={error} />;
  }

  const game = withPending(live, box.items);
  const onFieldSet = new Set(onField.filter((k) => game.roster.some((p) => p.key === k)));
  const fieldPlayers = game.roster.filter((p) => onFieldSet.has(p.key));
  const sidelinePlayers = game.roster.filter((p) => !onFieldSet.has(p.key));
  const warning = fieldCountWarning(fieldPlayers.length, game.playersPerSnap);
  const waiting = box.items.length;
  const groups = sheet.data?.groups ?? [];
  const lastSnap = game.snaps.at(-1);

  const toggle = (key: string) =>
    setOnField(
      onFieldSet.has(key) ? [...onFieldSet].filter((k) => k !== key) : [...onFieldSet, key],
    );

  function loadLineup() {
    const group = groups.find((g) => g.groupKey === lineupKey);
    if (!group || !sheet.data) return;
    setOnField(
      lineupOf(
        sheet.data.groupMembership[group.groupKey],
        game.roster.map((p) => p.key),
      ),
    );
    setGroupName(group.groupName);
  }

  return (
    <section className="page pc-count">
      <header className="pc-count-head">
        <h1>
          {game.gameName}{' '}
          <span className="muted pc-title-date">{formatGameDate(game.gameDate)}</span>
        </h1>
        <span className="pc-count-actions">
          <Link className="pc-count-detail" to={pathTo('playcount', { gameKey })}>
            Details &amp; sharing
          </Link>
          {/* Away from the thumb's Snap bar: finishing is deliberate, once per game. */}
          {!game.finished && !coscorer && (
            <button
              type="button"
              className="btn pc-finish"
              disabled={waiting > 0 || finish.isPending}
              onClick={() => finish.mutate({ finished: true })}
            >
              Finish
            </button>
          )}
        </span>
      </header>

      <p className={`pc-sync${waiting ? ' pc-sync-waiting' : ''}`} role="status">
        {!box.online && 'Offline. '}
        {waiting
          ? `${waiting} ${waiting === 1 ? 'snap' : 'snaps'} waiting to be sent`
          : `${game.snaps.length} ${game.snaps.length === 1 ? 'snap' : 'snaps'} counted, all saved`}
      </p>
      {game.finished && (
        <p className="pc-finished" role="status">
          Finished: the shared link shows these as final.{' '}
          {!coscorer && (
            <button
              type="button"
              className="btn"
              disabled={finish.isPending}
              onClick={() => finish.mutate({ finished: false })}
            >
              Take up again
            </button>
          )}
        </p>
      )}
      {box.error && (
        <p className="form-error" role="alert">
          {box.error}
        </p>
      )}

      <div className="pc-count-controls">
        <div className="pc-quarters" role="group" aria-label="Quarter">
          {QUARTERS.map((q) => (
            <button
              key={q}
              type="button"
              className="btn pc-quarter"
              aria-pressed={quarter === q}
              onClick={() => setQuarter(q)}
            >
              Q{q}
            </button>
          ))}
        </div>
        {groups.length > 0 && (
          <div className="pc-lineup">
            <label htmlFor={lineupId}>Lineup</label>
            <select id={lineupId} value={lineupKey} onChange={(e) => setLineupKey(e.target.value)}>
              <option value="">Choose a group…</option>
              {groups.map((g) => (
                <option key={g.groupKey} value={g.groupKey}>
                  {g.groupName}
                </option>
              ))}
            </select>
            <button type="button" className="btn" disabled={!lineupKey} onClick={loadLineup}>
              Load
            </button>
          </div>
        )}
      </div>

      {warning && (
        <p className="pc-field-warning" role="status">
          {warning}
        </p>
      )}

      <PlayerList
        title="On Field"
        players={fieldPlayers}
        minPlays={game.minPlays}
        onToggle={toggle}
        empty="Nobody on the field: tap players below, or load a lineup."
      />
      <PlayerList
        title="Sideline"
        players={sidelinePlayers}
        minPlays={game.minPlays}
        onToggle={toggle}
        empty="Everyone is on the field."
      />

      <div className="pc-snapbar">
        <button
          type="button"
          className="btn pc-undo"
          disabled={!lastSnap || game.finished}
          onClick={() => box.enqueue({ kind: 'undo' })}
          aria-label={lastSnap ? `Undo snap ${lastSnap.snapCount}` : 'Undo last snap'}
        >
          Undo
        </button>
        <button
          type="button"
          className="btn primary pc-snap-btn"
          disabled={fieldPlayers.length === 0 || game.finished}
          onClick={() =>
            box.enqueue({
              kind: 'snap',
              quarter,
              groupName,
              players: fieldPlayers.map((p) => p.key),
            })
          }
        >
          Snap
          <span className="pc-snap-sub">
            Q{quarter} · {fieldPlayers.length} on field · next #{(lastSnap?.snapCount ?? 0) + 1}
          </span>
        </button>
      </div>
    </section>
  );
}

interface ListProps {
  title: string;
  players: PlayCountRosterEntry[];
  minPlays: number | null;
  onToggle(key: string): void;
  empty: string;
}

function PlayerList({ title, players, minPlays, onToggle, empty }: ListProps) {
  const onField = title === 'On Field';
  const id = useId();
  return (
    <section className={`pc-field${onField ? ' pc-field-on' : ''}`} aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="pc-field-count">{players.length}</span>
      </h2>
      {players.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="pc-tiles">
          {players.map((p) => {
            const needs = playsStillNeeded(p.playCount, minPlays);
            return (
              <li key={p.key}>
                <button
                  type="button"
                  className={`pc-tile${needs ? ' pc-tile-below' : ''}`}
                  onClick={() => onToggle(p.key)}
                  aria-label={`#${p.jersey} ${p.playerName}, ${countOf(p.playCount, 'play')}${
                    needs ? `, needs ${needs} more` : ''
                  }: move to ${onField ? 'Sideline' : 'On Field'}`}
                >
                  <PlayerAvatar imageURL={p.imageURL} />
                  <span className="pc-tile-jersey">{p.jersey}</span>
                  <span className="pc-tile-name">{p.playerName}</span>
                  <span className="pc-tile-plays" data-testid="plays">
                    {p.playCount}
                  </span>
                  {needs > 0 && <span className="pc-tile-needs">needs {needs}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
