import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { hasExtension, playerInputSchema } from '@sagan/shared/teamsheet';
import { NEW_PLAYER_KEY, type Player } from '@sagan/shared/teamsheet-schemas';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useDeletePlayer, useSavePlayer, useTeam } from './api.ts';
import { Avatar } from './avatar.tsx';
import { ConfirmDelete } from './confirm-delete.tsx';
import { FormFooter } from './form-footer.tsx';
import './teamsheets.css';

/** SPEC §5: a photo is sent only when its data is longer than this; a smaller one is refused. */
const MIN_PHOTO_DATA = 1024;

type FieldErrors = { jersey?: string; playerName?: string };

function fieldErrors(values: { jersey: string; playerName: string; playerNotes: string }) {
  const parsed = playerInputSchema.safeParse(values);
  const next: FieldErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if (field === 'jersey' || field === 'playerName') next[field] ??= issue.message;
  }
  return { parsed, errors: next };
}

const EMPTY: Player = {
  key: NEW_PLAYER_KEY,
  jersey: '',
  playerName: '',
  playerNotes: '',
  imageURL: '',
};

export default function PlayerEditPage() {
  const { teamKey = '', playerKey = NEW_PLAYER_KEY } = useParams();
  const team = useTeam(teamKey);
  const isNew = playerKey === NEW_PLAYER_KEY;
  usePageTitle(isNew ? 'Add Player' : 'Edit Player');
  if (team.loading) return <Loading />;
  // Refused (not this user's team, or no such team) or deleted: not found, either way.
  if (!team.data) return <NotFound what="team sheet" />;
  const player = isNew ? EMPTY : team.data.roster.find((p) => p.key === playerKey);
  if (!player) return <NotFound what="player" />;
  return <PlayerForm key={player.key} teamKey={teamKey} player={player} isNew={isNew} />;
}

function PlayerForm({
  teamKey,
  player,
  isNew,
}: {
  teamKey: string;
  player: Player;
  isNew: boolean;
}) {
  const navigate = useNavigate();
  const [jersey, setJersey] = useState(player.jersey);
  const [playerName, setPlayerName] = useState(player.playerName);
  const [playerNotes, setPlayerNotes] = useState(player.playerNotes);
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors & { file?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const save = useSavePlayer(teamKey);
  const remove = useDeletePlayer(teamKey);
  const back = () => navigate(pathTo('teamsheetedit', { teamKey }));

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    const input = e.target;
    const refuse = (why: string) => {
      setErrors((x) => ({ ...x, file: why }));
      setDataUrl(null);
      input.value = '';
    };
    if (!file.type.startsWith('image/')) {
      return refuse(`“${file.name}” is not a picture. Please choose a JPEG or PNG file.`);
    }
    if (!hasExtension(file.name)) {
      // SPEC §5 ignores such a file; it says so instead.
      return refuse(`“${file.name}” has no file type (like .jpg) in its name. Please rename it.`);
    }
    setErrors((x) => ({ ...x, file: undefined }));
    const reader = new FileReader();
    reader.onload = () => {
      const result = typeof reader.result === 'string' ? reader.result : '';
      // Sent only above this size (SPEC §5): saying so beats a preview that is never saved.
      if (result.length <= MIN_PHOTO_DATA) {
        refuse('That picture is too small (under 1 KB). Please choose a larger one.');
        return;
      }
      setDataUrl(result);
    };
    reader.onerror = () => refuse('That picture could not be read.');
    reader.readAsDataURL(file);
  }

  // A shown error follows the field as it is typed in: it goes once the field is valid, and is
  // never added before the first Save.
  function revalidate(values: { jersey: string; playerName: string }) {
    setErrors((shown) => {
      if (!shown.jersey && !shown.playerName) return shown;
      const now = fieldErrors({ ...values, playerNotes }).errors;
      return {
        ...shown,
        jersey: shown.jersey && now.jersey,
        playerName: shown.playerName && now.playerName,
      };
    });
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const { parsed, errors: next } = fieldErrors({ jersey, playerName, playerNotes });
    if (!parsed.success) {
      setErrors((x) => ({ ...next, file: x.file }));
      return;
    }
    setErrors((x) => ({ file: x.file }));
    if (save.isPending) return;
    save.mutate({ playerKey: player.key, player: parsed.data, dataUrl }, { onSuccess: back });
  }

  return (
    <section className="page narrow player-edit">
      <h1>{isNew ? 'Add Player' : 'Edit Player'}</h1>
      <form className="card" onSubmit={onSubmit} noValidate>
        <TextField
          id="jersey"
          label="Jersey"
          help="Numbers or Letters"
          maxLength={10}
          value={jersey}
          error={errors.jersey}
          onChange={(value) => {
            setJersey(value);
            revalidate({ jersey: value, playerName });
          }}
        />
        <TextField
          id="playerName"
          label="Name"
          help="First and Last Name"
          maxLength={100}
          value={playerName}
          error={errors.playerName}
          onChange={(value) => {
            setPlayerName(value);
            revalidate({ jersey, playerName: value });
          }}
        />

        <label htmlFor="playerNotes">Notes</label>
        <textarea
          id="playerNotes"
          rows={5}
          maxLength={2000}
          value={playerNotes}
          onChange={(e) => setPlayerNotes(e.target.value)}
          aria-describedby="playerNotes-help"
        />
        <p id="playerNotes-help" className="help">
          Public: notes show on the published sheet unless the team hides them (“Hide notes on the
          public sheet”, under Privacy on the team page).
        </p>

        <div className="picture">
          <Avatar src={dataUrl ?? player.imageURL} alt="Picture preview" height={150} />
          <label htmlFor="picture" className="btn file-btn">
            Add Picture
          </label>
          <input
            id="picture"
            className="visually-hidden"
            type="file"
            accept="image/*"
            onChange={onFile}
          />
          {errors.file && (
            <p className="form-error" role="alert">
              {errors.file}
            </p>
          )}
        </div>

        <FormFooter
          error={save.error}
          pending={save.isPending}
          pendingLabel="Saving…"
          onCancel={back}
        >
          {!isNew && !confirming && (
            <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </FormFooter>
        {confirming && (
          <ConfirmDelete
            id="confirm-text"
            question="Delete this player?"
            yes="Yes, delete"
            pending={remove.isPending}
            error={remove.error}
            onYes={() => void remove.mutateAsync(player.key).then(back, () => undefined)}
            onNo={() => setConfirming(false)}
          />
        )}
      </form>
    </section>
  );
}

/** A required field of the form, its help, and its error once it has one, both read with it. */
function TextField({
  id,
  label,
  help,
  maxLength,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  help: string;
  maxLength: number;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        maxLength={maxLength}
        required
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={error ? `${id}-error ${id}-help` : `${id}-help`}
        aria-invalid={error ? true : undefined}
      />
      <p id={`${id}-help`} className="help">
        {help}
      </p>
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </>
  );
}
