import { useId, useState, type FormEvent } from 'react';
import { countOf } from '@sagan/shared/count-of';
import { minPlaysSchema, type PlayCountGame } from '@sagan/shared/playcount';
import { belowMinimum } from '@sagan/shared/playcount-minimum';
import { ErrorMessage } from '../../../components/error-message.tsx';

interface Props {
  game: PlayCountGame;
  saving: boolean;
  error: unknown;
  onSave(minPlays: number | null): Promise<unknown>;
}

/** Beyond SPEC: the coach's minimum plays per player for this game. */
export function MinPlaysForm({ game, saving, error, onSave }: Props) {
  const id = useId();
  // null = not being edited, so live updates of the stored minimum show through.
  const [draft, setDraft] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const value = draft ?? (game.minPlays === null ? '' : String(game.minPlays));
  const below = belowMinimum(game.roster, game.minPlays);

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = value.trim();
    const parsed = text === '' ? null : minPlaysSchema.safeParse(Number(text));
    if (parsed && !parsed.success) {
      setInvalid('Enter a whole number of plays from 0 to 1000, or leave it empty.');
      return;
    }
    setInvalid(null);
    // The typed value stays until the save succeeds (DESIGN §8: input is kept on failure).
    onSave(parsed ? parsed.data : null).then(
      () => setDraft(null),
      () => undefined,
    );
  }

  return (
    <form className="card pc-min-form" onSubmit={submit} noValidate>
      <label htmlFor={id}>Minimum plays per player</label>
      <div className="pc-min-row">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={0}
          max={1000}
          step={1}
          value={value}
          aria-describedby={`${id}-help`}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="btn" disabled={saving}>
          Save
        </button>
      </div>
      <p className="help" id={`${id}-help`}>
        Players below it are marked, and the CSV says whether each met it. Leave empty for no
        minimum.
      </p>
      {invalid && (
        <p className="form-error" role="alert">
          {invalid}
        </p>
      )}
      <ErrorMessage error={error} />
      {game.minPlays !== null && (
        <p className="pc-min-status" role="status">
          {below.length === 0
            ? `Every player has at least ${countOf(game.minPlays, 'play')}.`
            : `${below.length} ${below.length === 1 ? 'player is' : 'players are'} below ${countOf(game.minPlays, 'play')}.`}
        </p>
      )}
    </form>
  );
}
