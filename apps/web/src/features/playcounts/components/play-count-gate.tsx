import type { ComponentType } from 'react';
import { useParams } from 'react-router';
import { ScorerGate } from '../../../components/coscorers/scorer-gate.tsx';

/**
 * A scorer's screen of the play count its route names. The gate closes it once the user no
 * longer scores that count, so the counter and the detail page close alike.
 */
export function PlayCountGate({ screen: Screen }: { screen: ComponentType<{ gameKey: string }> }) {
  const { gameKey = '' } = useParams();
  return (
    <ScorerGate kind="playcount" gameKey={gameKey}>
      <Screen gameKey={gameKey} />
    </ScorerGate>
  );
}
