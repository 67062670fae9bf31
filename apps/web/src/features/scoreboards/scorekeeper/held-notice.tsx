import { useState } from 'react';
import type { GameEventAnswer } from '@sagan/shared/game-events';
import type { HeldApply } from '@sagan/shared/game-log';
import { gameHeldTopic, type HeldGroup } from '@sagan/shared/topics/game-held';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { useLive } from '../../../lib/realtime.ts';
import { useResolveHeld } from './api.ts';

const taps = (n: number) => (n === 1 ? '1 tap' : `${n} taps`);

function Group({
  group,
  busy,
  onDecide,
}: {
  group: HeldGroup;
  busy: boolean;
  onDecide: (group: HeldGroup, apply: HeldApply) => void;
}) {
  // Into the set they were made in only where that changes no result.
  const choices: { apply: HeldApply; label: string; className: string }[] = [
    ...(group.applyToPeriod
      ? [{ apply: 'period' as const, label: `Apply to ${group.period}`, className: 'sk-btn' }]
      : []),
    { apply: 'now', label: 'Apply now', className: 'sk-btn' },
    { apply: 'discard', label: 'Discard', className: 'sk-btn sk-minus' },
  ];
  return (
    <li>
      <p>
        <strong>
          {taps(group.events.length)} made in {group.period} arrived after{' '}
          {group.arrivedIn || 'the next period'} began
        </strong>
      </p>
      <p className="help">
        {group.applyToPeriod
          ? 'Nothing counts them yet. Decide where they go.'
          : `Nothing counts them yet. Applying them to ${group.period} would change who won it.`}
      </p>
      <div className="sk-held-actions">
        {choices.map(({ apply, label, className }) => (
          <button
            key={apply}
            type="button"
            className={className}
            disabled={busy}
            onClick={() => onDecide(group, apply)}
          >
            {label}
          </button>
        ))}
      </div>
    </li>
  );
}

/**
 * Taps made in a set that had ended when they arrived (DESIGN §10 held events): nothing counts
 * them until a scorer decides. Every scorer of the game sees them here, from the scorers'
 * private topic; the first decision wins, and a later one is told what was decided.
 */
export function HeldNotice({ gameKey, device }: { gameKey: string; device: string }) {
  const held = useLive(gameHeldTopic, gameKey);
  const resolve = useResolveHeld(gameKey, device);
  const [done, setDone] = useState<GameEventAnswer | null>(null);
  const groups = held.data?.groups ?? [];
  if (!groups.length && !done && !resolve.error) return null;
  function decide(group: HeldGroup, apply: HeldApply) {
    setDone(null);
    resolve.mutate(
      { events: group.events.map((e) => e.eventId), apply },
      { onSuccess: (answer) => setDone(answer) },
    );
  }
  return (
    <section className="card sk-held" aria-label="Held taps">
      {groups.length > 0 && (
        <ul>
          {groups.map((g) => (
            <Group key={g.period} group={g} busy={resolve.isPending} onDecide={decide} />
          ))}
        </ul>
      )}
      {done?.note && <p role="status">Done: {done.note}.</p>}
      {resolve.error && <ErrorMessage error={resolve.error.message} />}
    </section>
  );
}
