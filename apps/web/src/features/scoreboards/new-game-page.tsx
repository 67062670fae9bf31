import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { defaultScoreboard, newGameSchema } from '@sagan/shared/scoreboard';
import { startFromLocalInput } from '@sagan/shared/game-schedule';
import { periodLabels, STARTING_SOON } from '@sagan/shared/scorekeeping';
import { SPORTS } from '@sagan/shared/sports';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { newId } from '../../lib/new-id.ts';
import { useCreateGame } from './scorekeeper/api.ts';
import { TagSuggestions } from './scorekeeper/around.tsx';
import { readTags } from './scorekeeper/read-tags.ts';
import {
  hasRules,
  MatchLength,
  ruleDraftOf,
  RuleFields,
  rulePatch,
} from './scorekeeper/rule-fields.tsx';
import { useServiceWorker } from '../../lib/service-worker.ts';
import { checked } from '../../lib/checked.ts';
import './scoreboards.css';
import './scorekeeper/scorekeeper.css';

const TENNIS = 8;
const TENNIS_LENGTHS = [1, 3, 5] as const;

/** New game: the sport, names, period and tags; lands on its scorekeeper. */
export default function NewGamePage() {
  usePageTitle('New Game');
  useServiceWorker();
  const navigate = useNavigate();
  // One key for this form: a second tap on Create while the first is on its way makes no
  // second game.
  const [key] = useState(newId);
  const create = useCreateGame(key);
  const [sportID, setSportID] = useState(2);
  const [gameName, setGameName] = useState('');
  const [homeTeamName, setHome] = useState('');
  const [awayTeamName, setAway] = useState('');
  const [gamePeriod, setPeriod] = useState(STARTING_SOON);
  const [maxSets, setMaxSets] = useState<(typeof TENNIS_LENGTHS)[number]>(3);
  const [tags, setTags] = useState('');
  const [rules, setRules] = useState(ruleDraftOf);
  const [starts, setStarts] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (create.isPending || create.isSuccess) return;
    const startsAt = starts ? startFromLocalInput(starts) : undefined;
    if (startsAt === null) {
      setInvalid('The start must be a date and time');
      return;
    }
    const fields = checked(
      newGameSchema,
      {
        sportID,
        gameName: gameName.trim() || defaultScoreboard.gameName,
        homeTeamName: homeTeamName.trim() || defaultScoreboard.homeTeamName,
        awayTeamName: awayTeamName.trim() || defaultScoreboard.awayTeamName,
        gamePeriod: gamePeriod.trim() || STARTING_SOON,
        ...(sportID === TENNIS ? { maxSets } : {}),
        ...rulePatch(sportID, rules),
        ...(startsAt === undefined ? {} : { startsAt }),
      },
      setInvalid,
      'Please check the form.',
    );
    if (!fields) return;
    const tagged = readTags(tags);
    if (!tagged.ok) {
      setInvalid(tagged.problem);
      return;
    }
    create.mutate(
      { fields, tags: tagged.names },
      {
        onSuccess: (gameKey) => void navigate(pathTo('scoregame', { gameKey }), { replace: true }),
      },
    );
  }

  const periods = [STARTING_SOON, ...periodLabels(sportID, maxSets)];
  return (
    <section className="page narrow new-game">
      <h1>New Game</h1>
      <form className="card" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-sport`}>Sport</label>
        <select
          id={`${id}-sport`}
          value={sportID}
          onChange={(e) => setSportID(Number(e.target.value))}
        >
          {Object.entries(SPORTS).map(([sid, name]) => (
            <option key={sid} value={sid}>
              {name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-name`}>Game name</label>
        <input
          id={`${id}-name`}
          value={gameName}
          maxLength={200}
          placeholder="U12 Saturday"
          onChange={(e) => setGameName(e.target.value)}
        />
        <div className="new-game-teams">
          <TeamNameField form={id} side="home" value={homeTeamName} onChange={setHome} />
          <TeamNameField form={id} side="away" value={awayTeamName} onChange={setAway} />
        </div>
        <label htmlFor={`${id}-period`}>Period</label>
        <input
          id={`${id}-period`}
          list={`${id}-periods`}
          value={gamePeriod}
          maxLength={200}
          onChange={(e) => setPeriod(e.target.value)}
        />
        <datalist id={`${id}-periods`}>
          {periods.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        {sportID === TENNIS && (
          <MatchLength
            id={`${id}-sets`}
            value={maxSets}
            choices={TENNIS_LENGTHS}
            onChange={setMaxSets}
          />
        )}
        {hasRules(sportID) && <RuleFields sportID={sportID} draft={rules} onChange={setRules} />}
        <label htmlFor={`${id}-starts`}>Starts</label>
        <input
          id={`${id}-starts`}
          type="datetime-local"
          value={starts}
          aria-describedby={`${id}-starts-help`}
          onChange={(e) => setStarts(e.target.value)}
        />
        <p className="help" id={`${id}-starts-help`}>
          Optional, for a game scored later: it is listed under Upcoming until the first score.
        </p>
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          list={`${id}-tag-list`}
          value={tags}
          placeholder="u12 saturday"
          onChange={(e) => setTags(e.target.value)}
        />
        <TagSuggestions id={`${id}-tag-list`} />
        <p className="help">
          Optional. Separate tags with spaces; pick an existing one or make a new one.
        </p>
        <ErrorMessage error={invalid} />
        <ErrorMessage error={create.error} />
        <div className="btn-row">
          <button
            type="submit"
            className="btn primary"
            disabled={create.isPending || create.isSuccess}
          >
            {create.isPending ? 'Creating…' : 'Create and start scoring'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** One team's name, home or away, beside the other's. */
function TeamNameField({
  form,
  side,
  value,
  onChange,
}: {
  /** The form's id, which the field's own is made from. */
  form: string;
  side: 'home' | 'away';
  value: string;
  onChange: (name: string) => void;
}) {
  const Side = side === 'home' ? 'Home' : 'Away';
  return (
    <div>
      <label htmlFor={`${form}-${side}`}>{Side} team</label>
      <input
        id={`${form}-${side}`}
        value={value}
        maxLength={200}
        placeholder={Side}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
