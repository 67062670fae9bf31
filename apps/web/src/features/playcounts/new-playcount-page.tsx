import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { newPlayCountSchema } from '@sagan/shared/playcount-sideline';
import { Loading } from '../../components/loading.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useAuth } from '../../lib/auth.ts';
import { useServiceWorker } from '../../lib/service-worker.ts';
import { useMyTeams, useStartPlayCount } from './api.ts';
import './playcounts.css';

/** Today on this device's calendar, as the date input writes it. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const optionalNumber = (text: string) => (text.trim() === '' ? null : Number(text));

/** Start a play count from one of the user's team sheets (its roster is copied). */
export default function NewPlayCountPage() {
  usePageTitle('New play count');
  useServiceWorker();
  const { user } = useAuth();
  const teams = useMyTeams(!!user);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const start = useStartPlayCount();
  const [teamKey, setTeamKey] = useState(params.get('team') ?? '');
  const [gameName, setGameName] = useState('');
  const [gameDate, setGameDate] = useState(today);
  const [minPlays, setMinPlays] = useState('');
  const [playersPerSnap, setPlayersPerSnap] = useState('11');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const mine = teams.data?.mine ?? [];
  const chosen = teamKey || (mine.length === 1 ? mine[0]!.teamKey : '');

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = newPlayCountSchema.safeParse({
      teamKey: chosen,
      gameName,
      gameDate,
      minPlays: optionalNumber(minPlays),
      playersPerSnap: optionalNumber(playersPerSnap),
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        next[field] ??= MESSAGES[field] ?? 'Please check this field.';
      }
      setProblems(next);
      return;
    }
    setProblems({});
    start.mutate(parsed.data, {
      onSuccess: ({ gameKey }) => navigate(pathTo('playcountcount', { gameKey })),
    });
  }

  return (
    <section className="page narrow pc-page">
      <h1>New play count</h1>
      {teams.isLoading && <Loading />}
      <ErrorMessage error={teams.error} />
      {teams.data && mine.length === 0 ? (
        <p className="muted">
          A play count starts from a team sheet.{' '}
          <Link to={pathTo('teamsheets')}>Create a team sheet</Link> with your players first.
        </p>
      ) : (
        teams.data && (
          <form className="card pc-new-form" onSubmit={submit} noValidate>
            <label htmlFor="pc-team">Team</label>
            <select id="pc-team" value={chosen} onChange={(e) => setTeamKey(e.target.value)}>
              <option value="">Choose a team…</option>
              {mine.map((t) => (
                <option key={t.teamKey} value={t.teamKey}>
                  {t.teamName}
                </option>
              ))}
            </select>
            <Problem text={problems.teamKey} />

            <label htmlFor="pc-name">Game name</label>
            <input
              id="pc-name"
              value={gameName}
              maxLength={200}
              placeholder="Eagles at Hawks"
              onChange={(e) => setGameName(e.target.value)}
            />
            <Problem text={problems.gameName} />

            <label htmlFor="pc-date">Game date</label>
            <input
              id="pc-date"
              type="date"
              value={gameDate}
              onChange={(e) => setGameDate(e.target.value)}
            />
            <Problem text={problems.gameDate} />

            <NumberField
              id="pc-min"
              label="Minimum plays per player"
              range={[0, 1000]}
              value={minPlays}
              onChange={setMinPlays}
              help="Optional. Players below it are marked with how many plays they still need."
              problem={problems.minPlays}
            />
            <NumberField
              id="pc-per-snap"
              label="Players on the field per snap"
              range={[1, 50]}
              value={playersPerSnap}
              onChange={setPlayersPerSnap}
              help="You are warned when the number on the field differs. Leave empty for no check."
              problem={problems.playersPerSnap}
            />

            <div className="btn-row">
              <button type="submit" className="btn primary" disabled={start.isPending}>
                Start counting
              </button>
              <Link className="btn" to={pathTo('playcounts')}>
                Cancel
              </Link>
            </div>
            <ErrorMessage error={start.error} />
          </form>
        )
      )}
    </section>
  );
}

const MESSAGES: Record<string, string> = {
  teamKey: 'Choose the team whose players you count.',
  gameName: 'Give the game a name (up to 200 characters).',
  gameDate: 'Choose the game’s date.',
  minPlays: 'Enter a whole number of plays from 0 to 1000, or leave it empty.',
  playersPerSnap: 'Enter a whole number of players from 1 to 50, or leave it empty.',
};

function Problem({ text }: { text: string | undefined }) {
  return text ? (
    <p className="form-error" role="alert">
      {text}
    </p>
  ) : null;
}

interface NumberFieldProps {
  id: string;
  label: string;
  range: [min: number, max: number];
  value: string;
  onChange(value: string): void;
  help: string;
  problem: string | undefined;
}

function NumberField({ id, label, range, value, onChange, help, problem }: NumberFieldProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={range[0]}
        max={range[1]}
        value={value}
        aria-describedby={`${id}-help`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="help" id={`${id}-help`}>
        {help}
      </p>
      <Problem text={problem} />
    </>
  );
}
