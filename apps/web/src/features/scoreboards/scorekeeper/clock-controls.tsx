import { useId, useState, type FormEvent } from 'react';
import { clockInputSchema } from '@sagan/shared/game-clock';
import { useGameClock } from '../boards/board-frame.tsx';
import { useClockControl } from './api.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { WriteButton } from '../../../components/write-button.tsx';
import { checked } from '../../../lib/checked.ts';

/** Start, stop and set the game clock, counting up or down (DESIGN §9). */
export function ClockControls({ gameKey }: { gameKey: string }) {
  const { clock, text } = useGameClock(gameKey);
  const control = useClockControl(gameKey);
  const [time, setTime] = useState('');
  const [direction, setDirection] = useState<'up' | 'down'>('down');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const running = clock?.running ?? false;

  function set(e: FormEvent) {
    e.preventDefault();
    const seconds = checked(
      clockInputSchema,
      time,
      setInvalid,
      'Write the time as minutes:seconds.',
    );
    if (seconds !== undefined) control.mutate({ action: 'set', seconds, direction });
  }

  return (
    <section className="sk-clock" aria-label="Game clock">
      <div className="sk-clock-row">
        <span className="sk-clock-time" aria-live="off">
          {text ?? '--:--'}
        </span>
        <WriteButton
          write={control}
          className={`sk-btn ${running ? 'sk-stop' : 'sk-start'}`}
          onClick={() => control.mutate({ action: running ? 'stop' : 'start' })}
        >
          {running ? 'Stop clock' : 'Start clock'}
        </WriteButton>
      </div>
      <form className="sk-clock-set" onSubmit={set} noValidate>
        <label htmlFor={`${id}-t`}>Set the clock</label>
        <div className="sk-inline">
          <input
            id={`${id}-t`}
            inputMode="numeric"
            placeholder="12:00"
            value={time}
            onChange={(e) => setTime(e.target.value)}
          />
          <select
            aria-label="Clock counts"
            value={direction}
            onChange={(e) => setDirection(e.target.value === 'up' ? 'up' : 'down')}
          >
            <option value="down">Counts down</option>
            <option value="up">Counts up</option>
          </select>
          <button type="submit" className="btn" disabled={control.isPending}>
            Set
          </button>
        </div>
      </form>
      <ErrorMessage error={invalid} />
      <ErrorMessage error={control.error} />
    </section>
  );
}
