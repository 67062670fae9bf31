import { createContext, useContext, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ScoredKind } from '@sagan/shared/coscorers';
import { pathTo } from '@sagan/shared/routes';
import { myScoringTopic } from '../../lib/list-topics.ts';
import { useAuth } from '../../lib/auth.ts';
import { useLive } from '../../lib/realtime.ts';

/** On a scorer's screen: null for the owner, else whose game or count this user scores. */
const ScorerContext = createContext<{ ownerName: string | null } | null>(null);

/** Whether this screen's user is a co-scorer (not the owner), and for whom. */
export function useCoscorer(): { ownerName: string | null } | null {
  return useContext(ScorerContext);
}

/**
 * Wraps a game's or a count's scoring screen. The user's scoring list is live: once the owner
 * revokes them, the screen (and with it its subscriptions and outbox) closes and says so.
 */
export function ScorerGate({
  kind,
  gameKey,
  children,
}: {
  kind: ScoredKind;
  gameKey: string;
  children: ReactNode;
}) {
  const { user } = useAuth();
  const scoring = useLive(myScoringTopic, user?.uid ?? null);
  const list = scoring.data
    ? kind === 'game'
      ? scoring.data.games
      : scoring.data.playCounts
    : undefined;
  const entry = list?.find((g) => g.gameKey === gameKey);
  const [wasScorer, setWasScorer] = useState(false);
  if (entry && !wasScorer) setWasScorer(true);
  if (wasScorer && list && !entry) {
    const what = kind === 'game' ? 'game' : 'play count';
    return (
      <section className="page narrow">
        <h1>You no longer score this {what}</h1>
        <p role="alert">
          The owner removed you as a co-scorer, so this {what} is closed to you. Taps you made
          before were kept.
        </p>
        <p>
          {kind === 'game' ? (
            <Link to={pathTo('scoreboard', { gameKey })}>Watch the scoreboard instead</Link>
          ) : (
            <Link to={pathTo('playcounts')}>Back to play counts</Link>
          )}
        </p>
      </section>
    );
  }
  return (
    <ScorerContext.Provider value={entry ? { ownerName: entry.ownerName } : null}>
      {children}
    </ScorerContext.Provider>
  );
}
