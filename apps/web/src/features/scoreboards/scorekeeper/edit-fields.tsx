import { useId, useState, type FormEvent } from 'react';
import {
  scoreboardPatchSchema,
  TENNIS_POINTS,
  type ScoreboardFields,
  type ScoreboardPatch,
} from '@sagan/shared/scoreboard';
import { boardFields, fieldLabel, type ScoreboardFieldName } from '@sagan/shared/scoreboard-boards';
import { boardKind } from '@sagan/shared/sports';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { ButtonRow } from '../../../components/button-row.tsx';

const LABELS: Partial<Record<ScoreboardFieldName, string>> = {
  gameName: 'Game name',
  gamePeriod: 'Period',
  homeTeamName: 'Home team',
  awayTeamName: 'Away team',
  homePossession: 'Home has the ball / bats / serves',
  maxSets: 'Sets (max)',
};

/**
 * A field's label: what it counts on this sport's board ('Home sets won') when the sport is
 * known, else 'homeFouls' → 'Home fouls'.
 */
export function labelOf(field: ScoreboardFieldName, sportID?: number): string {
  const counted = sportID === undefined ? null : fieldLabel(field, sportID);
  if (counted) return counted;
  const words = field.replace(/([A-Z0-9])/g, ' $1').toLowerCase();
  return LABELS[field] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** Any field of the board, typed in directly: the correction for whatever a tap got wrong. */
export function EditFields({
  game,
  locked = [],
  onSave,
}: {
  game: ScoreboardFields;
  /** Fields this scorer may not change (a co-scorer never renames the game): not offered. */
  locked?: readonly ScoreboardFieldName[];
  onSave: (values: ScoreboardPatch) => void;
}) {
  const fields = boardFields(boardKind(game.sportID)).filter(
    (f) => f !== 'sportID' && !locked.includes(f),
  );
  // What the form showed when it opened. Only the fields the scorer changed since are saved:
  // the others may have moved meanwhile (another phone scoring, a tap still on its way), and
  // writing back what the form once showed would undo that.
  const [opened] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(
      fields.map((f) => [f, typeof game[f] === 'boolean' ? game[f] : String(game[f])]),
    ),
  );
  const [draft, setDraft] = useState(opened);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    const values: Record<string, unknown> = {};
    for (const f of fields) {
      const v = draft[f];
      if (v === opened[f]) continue;
      values[f] = typeof game[f] === 'number' ? Number(v) : v;
    }
    const parsed = scoreboardPatchSchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setInvalid(
        `${labelOf(String(issue?.path[0]) as ScoreboardFieldName, game.sportID)}: ${issue?.message ?? 'not valid'}`,
      );
      return;
    }
    setInvalid(null);
    setSaved(true);
    onSave(parsed.data);
  }

  return (
    <form className="sk-edit" onSubmit={submit} noValidate>
      <div className="sk-edit-grid">
        {fields.map((f) => {
          const value = draft[f];
          const change = (v: string | boolean) => {
            setSaved(false);
            setDraft((d) => ({ ...d, [f]: v }));
          };
          if (typeof value === 'boolean') {
            return (
              <label key={f} className="sk-check">
                <input type="checkbox" checked={value} onChange={(e) => change(e.target.checked)} />{' '}
                {labelOf(f, game.sportID)}
              </label>
            );
          }
          return (
            <div key={f}>
              <label htmlFor={`${id}-${f}`}>{labelOf(f, game.sportID)}</label>
              {f === 'homeScorePointsTennis' || f === 'awayScorePointsTennis' ? (
                <select id={`${id}-${f}`} value={value} onChange={(e) => change(e.target.value)}>
                  {/* A tiebreak's count (7) is kept as it is, beside the usual points. */}
                  {[...new Set([...TENNIS_POINTS, String(value)])].map((p) => (
                    <option key={p}>{p}</option>
                  ))}
                </select>
              ) : (
                <input
                  id={`${id}-${f}`}
                  type={typeof game[f] === 'number' ? 'number' : 'text'}
                  inputMode={typeof game[f] === 'number' ? 'numeric' : undefined}
                  min={typeof game[f] === 'number' ? 0 : undefined}
                  value={value}
                  onChange={(e) => change(e.target.value)}
                />
              )}
            </div>
          );
        })}
      </div>
      <ErrorMessage error={invalid} />
      <ButtonRow done={saved && 'Saved'}>
        <button type="submit" className="btn primary">
          Save changes
        </button>
      </ButtonRow>
    </form>
  );
}
