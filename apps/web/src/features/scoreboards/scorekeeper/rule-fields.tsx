import { useId, useState, type FormEvent } from 'react';
import { playBegun } from '@sagan/shared/game-rules';
import {
  scoreboardPatchSchema,
  type ScoreboardFields,
  type ScoreboardPatch,
  type TennisDecider,
} from '@sagan/shared/scoreboard';
import { boardKind } from '@sagan/shared/sports';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { ButtonRow } from '../../../components/button-row.tsx';
import { checked } from '../../../lib/checked.ts';

// A game's rules, chosen on the New game form and changed by the owner until play begins
// (game-rules.ts): tennis no-ad and the deciding set, volleyball's set points and match length.

const DECIDERS: Record<TennisDecider, string> = {
  tiebreak: 'Tiebreak at 6–6',
  tiebreak12: 'Tiebreak at 12–12',
  matchTiebreak: 'Match tiebreak to 10',
  advantage: 'Advantage set (no tiebreak)',
};

/** The rules as the form holds them: a flag, a choice, or the digits typed. */
export interface RuleDraft {
  tennisNoAd: boolean;
  tennisDecider: TennisDecider;
  setPoints: string;
  decidingSetPoints: string;
  volleyballBestOf: 3 | 5;
}

export const ruleDraftOf = (f: Partial<ScoreboardFields> = {}): RuleDraft => ({
  tennisNoAd: f.tennisNoAd ?? false,
  tennisDecider: f.tennisDecider ?? 'tiebreak',
  setPoints: String(f.setPoints ?? 25),
  decidingSetPoints: String(f.decidingSetPoints ?? 15),
  volleyballBestOf: f.volleyballBestOf ?? 5,
});

/** Whether a sport has rules to choose. */
export const hasRules = (sportID: number): boolean =>
  ['tennis', 'volleyball'].includes(boardKind(sportID));

/**
 * The sport's rules as scoreboard fields, for the schema to check. `all` keeps the usual
 * values too (an edit back to the usual rule); a new game leaves them out, so its frame
 * carries nothing more.
 */
export function rulePatch(sportID: number, d: RuleDraft, all = false): Record<string, unknown> {
  const kind = boardKind(sportID);
  const out: Record<string, unknown> = {};
  const keep = (k: keyof RuleDraft, v: unknown, usual: unknown) => {
    if (all || v !== usual) out[k] = v;
  };
  if (kind === 'tennis') {
    keep('tennisNoAd', d.tennisNoAd, false);
    keep('tennisDecider', d.tennisDecider, 'tiebreak');
  }
  if (kind === 'volleyball') {
    // An empty box is no number: the schema then says what is wanted.
    const num = (s: string) => (s.trim() === '' ? s : Number(s));
    keep('setPoints', num(d.setPoints), 25);
    keep('decidingSetPoints', num(d.decidingSetPoints), 15);
    keep('volleyballBestOf', d.volleyballBestOf, 5);
  }
  return out;
}

/** How many sets a match is the best of (tennis 1, 3 or 5; volleyball 3 or 5). */
export function MatchLength<N extends number>({
  id,
  value,
  choices,
  onChange,
}: {
  id: string;
  value: N;
  choices: readonly N[];
  onChange: (n: N) => void;
}) {
  return (
    <>
      <label htmlFor={id}>Match length</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(choices.find((n) => String(n) === e.target.value) ?? value)}
      >
        {choices.map((n) => (
          <option key={n} value={n}>
            Best of {n} {n === 1 ? 'set' : 'sets'}
          </option>
        ))}
      </select>
    </>
  );
}

const VOLLEYBALL_LENGTHS = [5, 3] as const;

/** The sport's rule inputs (tennis, volleyball); nothing for a sport without rules. */
export function RuleFields({
  sportID,
  draft,
  onChange,
}: {
  sportID: number;
  draft: RuleDraft;
  onChange: (d: RuleDraft) => void;
}) {
  const id = useId();
  const kind = boardKind(sportID);
  const set = <K extends keyof RuleDraft>(k: K, v: RuleDraft[K]) => onChange({ ...draft, [k]: v });
  if (kind === 'tennis') {
    return (
      <>
        <label className="sk-check">
          <input
            type="checkbox"
            checked={draft.tennisNoAd}
            onChange={(e) => set('tennisNoAd', e.target.checked)}
          />{' '}
          No-ad scoring (the point at deuce wins the game)
        </label>
        <label htmlFor={`${id}-decider`}>Deciding set</label>
        <select
          id={`${id}-decider`}
          value={draft.tennisDecider}
          onChange={(e) => set('tennisDecider', e.target.value as TennisDecider)}
        >
          {Object.entries(DECIDERS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </>
    );
  }
  if (kind === 'volleyball') {
    return (
      <>
        <MatchLength
          id={`${id}-best-of`}
          value={draft.volleyballBestOf}
          choices={VOLLEYBALL_LENGTHS}
          onChange={(n) => set('volleyballBestOf', n)}
        />
        <div className="new-game-teams">
          <SetPoints
            id={`${id}-set`}
            label="Points to win a set"
            value={draft.setPoints}
            onChange={(v) => set('setPoints', v)}
          />
          <SetPoints
            id={`${id}-deciding`}
            label="In the deciding set"
            value={draft.decidingSetPoints}
            onChange={(v) => set('decidingSetPoints', v)}
          />
        </div>
      </>
    );
  }
  return null;
}

/** The rules in words, as a scorer reads them once they are fixed. */
function rulesInWords(f: ScoreboardFields): string {
  if (boardKind(f.sportID) === 'tennis') {
    const decider = DECIDERS[f.tennisDecider ?? 'tiebreak'].toLowerCase();
    return `${f.tennisNoAd ? 'No-ad scoring' : 'Advantage scoring'}; deciding set: ${decider}.`;
  }
  const sets = f.volleyballBestOf ?? 5;
  return `Best of ${sets} sets, each to ${f.setPoints ?? 25}, the deciding ${sets === 3 ? '3rd' : '5th'} to ${f.decidingSetPoints ?? 15}, by 2.`;
}

/** The owner's Rules panel: the rules, editable until play begins, then fixed and said. */
export function RulesForm({
  game,
  onSave,
}: {
  game: ScoreboardFields;
  onSave: (values: ScoreboardPatch) => void;
}) {
  const [draft, setDraft] = useState(() => ruleDraftOf(game));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (playBegun(game)) {
    return (
      <p className="help">{rulesInWords(game)} The rules can&apos;t change once play has begun.</p>
    );
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const patch = checked(
      scoreboardPatchSchema,
      rulePatch(game.sportID, draft, true),
      setInvalid,
      'Please check the rules.',
    );
    if (!patch) return;
    // Only what changed: a rule left as it is (the usual one, if never chosen) is not sent.
    const now: Record<string, unknown> = rulePatch(game.sportID, ruleDraftOf(game), true);
    const values = Object.fromEntries(
      Object.entries(patch).filter(([k, v]) => v !== now[k]),
    ) as ScoreboardPatch;
    setSaved(true);
    if (Object.keys(values).length) onSave(values);
  }
  return (
    <form className="sk-edit" onSubmit={submit} noValidate>
      <RuleFields
        sportID={game.sportID}
        draft={draft}
        onChange={(d) => {
          setSaved(false);
          setDraft(d);
        }}
      />
      <ErrorMessage error={invalid} />
      <ButtonRow done={saved && 'Saved'}>
        <button type="submit" className="btn primary">
          Save the rules
        </button>
      </ButtonRow>
    </form>
  );
}

/** The points that win a volleyball set (5 to 99), as typed. */
function SetPoints({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={5}
        max={99}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
