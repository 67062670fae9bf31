import { Link } from 'react-router';
import type { ScoredKind } from '@sagan/shared/coscorers';
import { pathTo } from '@sagan/shared/routes';
import { myScoringTopic } from '../../lib/list-topics.ts';
import { useLive } from '../../lib/realtime.ts';
import './coscorers.css';

/**
 * The games or counts this user co-scores for someone else, live (a revoked one leaves at
 * once). Shown only when there are some, so nobody else's lists change.
 */
export function ScoringList({ kind, uid }: { kind: ScoredKind; uid: string | null }) {
  const scoring = useLive(myScoringTopic, uid);
  const items = kind === 'game' ? scoring.data?.games : scoring.data?.playCounts;
  if (!items?.length) return null;
  const title = kind === 'game' ? 'Games I Co-score' : 'Play Counts I Co-count';
  return (
    <section className="scoreboards-section co-scoring">
      <h2>{title}</h2>
      <ul className="co-list" aria-label={title}>
        {items.map((g) => (
          <li key={g.gameKey}>
            <span>
              <strong>{g.gameName || 'Untitled'}</strong>{' '}
              <span className="muted">with {g.ownerName ?? 'its owner'}</span>
            </span>
            <Link
              className="btn primary"
              to={
                kind === 'game'
                  ? pathTo('scoregame', { gameKey: g.gameKey })
                  : pathTo('playcountcount', { gameKey: g.gameKey })
              }
              aria-label={`${kind === 'game' ? 'Score' : 'Count'} ${g.gameName}`}
            >
              {kind === 'game' ? 'Score' : 'Count'}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
