import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { BASE_PATH, pathTo } from '@sagan/shared/routes';
import { API_PATH } from '@sagan/shared/http-paths';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import type { ScoreboardFieldName } from '@sagan/shared/scoreboard-boards';
import type { GameHistoryEntry } from '@sagan/shared/game-history';
import { changeLabel } from '@sagan/shared/change-label';
import { tagsTopic } from '../../../lib/list-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import { CopyField } from '../../../components/copy-field.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { Loading } from '../../../components/loading.tsx';
import {
  useAddComment,
  useDeleteGame,
  useMarkRead,
  useMessages,
  useSetTags,
  useVoidEvent,
} from './api.ts';
import { labelOf } from './edit-fields.tsx';
import { readTags } from './read-tags.ts';
import { ButtonRow } from '../../../components/button-row.tsx';
import { WriteButton } from '../../../components/write-button.tsx';

const time = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', second: '2-digit' });

const KIND_LABELS: Record<string, string> = {
  void: 'Undo',
  set: 'Edit',
  resolve: 'Held taps',
  scorer: 'Who scored',
};

type TeamNames = { homeTeamName: string; awayTeamName: string };

/** What became of a tap held because its period had ended. */
function heldLabel(e: GameHistoryEntry): string | null {
  const where = e.period ? ` in ${e.period}` : '';
  switch (e.held) {
    case 'waiting':
      return `made${where}, held: waiting for a scorer`;
    case 'period':
      return `made${where}, held, then applied to ${e.period ?? 'its period'}`;
    case 'now':
      return `made${where}, held, then applied now`;
    case 'discard':
      return `made${where}, held, then discarded`;
    default:
      return null;
  }
}

/** One change's line: the tap in words, else what moved, from what to what. */
function describe(e: GameHistoryEntry, names: TeamNames): string {
  const said = changeLabel(e, names);
  if (said) return said;
  const moves = Object.entries(e.changes).map(
    ([f, c]) => `${labelOf(f as ScoreboardFieldName)} ${String(c.from)} → ${String(c.to)}`,
  );
  return moves.length ? moves.join(', ') : 'no change';
}

/**
 * The game's changes, newest first, from the owner-only history topic: who made each, when and
 * on which device; the owner can void any of them (and void a void) from here (DESIGN §10).
 */
export function History({
  gameKey,
  device,
  entries,
  names,
  ownDeviceOnly = false,
}: {
  gameKey: string;
  device: string;
  entries: GameHistoryEntry[];
  /** The teams' names, as the taps are said ("Lions +2"). */
  names: TeamNames;
  /** A co-scorer voids only what this device made; the owner voids anything. */
  ownDeviceOnly?: boolean;
}) {
  const voidEvent = useVoidEvent(gameKey, device);
  if (!entries.length) return <p className="muted">No changes yet.</p>;
  const outcome = voidEvent.data;
  return (
    <>
      <ol className="sk-history" aria-label="Changes" tabIndex={0}>
        {entries.map((e) => (
          <li key={e.seq}>
            <time className="muted" dateTime={new Date(e.at).toISOString()}>
              {time(e.at)}
            </time>{' '}
            {e.kind && <strong>{KIND_LABELS[e.kind] ?? 'Tap'}: </strong>}
            {e.voided ? <del>{describe(e, names)}</del> : describe(e, names)}
            {e.eventId && (
              <span className="muted">
                {' '}
                by {e.by ?? 'someone'}
                {e.device === device ? ' (this device)' : ''}
                {e.voided ? ', voided' : ''}
              </span>
            )}
            {e.held && <span className="muted"> ({heldLabel(e)})</span>}
            {e.note && <span className="muted"> ({e.note})</span>}
            {e.eventId &&
              !e.voided &&
              e.kind !== 'resolve' &&
              (!ownDeviceOnly || e.device === device) && (
                <WriteButton
                  write={voidEvent}
                  className="sk-void"
                  onClick={() => voidEvent.mutate(e.eventId!)}
                >
                  Void
                </WriteButton>
              )}
          </li>
        ))}
      </ol>
      {outcome && !outcome.changed && (
        <p role="status">
          {outcome.overwrittenAt
            ? `That changed nothing: overwritten by the edit at ${time(outcome.overwrittenAt)}.`
            : (outcome.note ?? 'That changed nothing.')}
        </p>
      )}
      {voidEvent.error && <ErrorMessage error={voidEvent.error.message} />}
    </>
  );
}

/** A comment for viewers, with the score as it stands. */
export function CommentForm({ gameKey, game }: { gameKey: string; game: ScoreboardFields }) {
  const add = useAddComment(gameKey);
  const [text, setText] = useState('');
  const id = useId();
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    add.mutate(
      {
        gameComment: text.trim(),
        homeTeamName: game.homeTeamName,
        homeScore: game.homeScore,
        awayTeamName: game.awayTeamName,
        awayScore: game.awayScore,
      },
      { onSuccess: () => setText('') },
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor={`${id}-c`}>Comment</label>
      <textarea
        id={`${id}-c`}
        rows={2}
        maxLength={2000}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          add.reset();
        }}
      />
      <p className="help">
        Posted with the score: {game.homeTeamName} {game.homeScore} – {game.awayTeamName}{' '}
        {game.awayScore}
      </p>
      <ErrorMessage error={add.error} />
      <ButtonRow done={add.isSuccess && 'Posted'}>
        <button type="submit" className="btn primary" disabled={add.isPending || !text.trim()}>
          Post comment
        </button>
      </ButtonRow>
    </form>
  );
}

/** Existing tags to pick from, as suggestions of a text field. */
export function TagSuggestions({ id }: { id: string }) {
  const tags = useLive(tagsTopic);
  const names = new Set(
    [...(tags.data?.popularTags ?? []), ...(tags.data?.newTags ?? [])].map((t) => t.name),
  );
  return (
    <datalist id={id}>
      {[...names].map((n) => (
        <option key={n} value={n} />
      ))}
    </datalist>
  );
}

export function TagsForm({ gameKey, tags }: { gameKey: string; tags: { name: string }[] }) {
  const save = useSetTags(gameKey);
  const [text, setText] = useState(() => tags.map((t) => t.name).join(' '));
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  function submit(e: FormEvent) {
    e.preventDefault();
    const tagged = readTags(text);
    if (!tagged.ok) {
      setInvalid(tagged.problem);
      return;
    }
    setInvalid(null);
    save.mutate(tagged.names);
  }
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor={`${id}-t`}>Tags</label>
      <input
        id={`${id}-t`}
        list={`${id}-l`}
        value={text}
        placeholder="u12 saturday"
        onChange={(e) => {
          setText(e.target.value);
          save.reset();
        }}
      />
      <TagSuggestions id={`${id}-l`} />
      <p className="help">Separate tags with spaces.</p>
      <ErrorMessage error={invalid} />
      <ErrorMessage error={save.error} />
      <ButtonRow done={save.isSuccess && 'Saved'}>
        <button type="submit" className="btn" disabled={save.isPending}>
          Save tags
        </button>
      </ButtonRow>
    </form>
  );
}

export function Messages({ gameKey }: { gameKey: string }) {
  const messages = useMessages(gameKey);
  const markRead = useMarkRead(gameKey);
  if (messages.isPending) return <Loading />;
  if (messages.error) return <ErrorMessage error={messages.error} />;
  const list = messages.data.messages;
  if (!list.length) return <p className="muted">No messages yet.</p>;
  return (
    <>
      <ul className="sk-messages">
        {list.map((m) => (
          <li key={m.id} className={m.read ? 'read' : 'unread'}>
            <p>{m.message}</p>
            <p className="muted">
              {m.fromName ?? 'A viewer'}, {time(m.createdAt)}
              {m.read ? ' · read' : ''}
            </p>
            {!m.read && (
              <WriteButton write={markRead} className="btn" onClick={() => markRead.mutate(m.id)}>
                Mark read
              </WriteButton>
            )}
          </li>
        ))}
      </ul>
      <ErrorMessage error={markRead.error} />
    </>
  );
}

/** The server draws the scoreboard link's QR code, as it does for team sheets. */
function QrCode({ gameKey }: { gameKey: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null; // the link and its Copy button stand without it
  return (
    <img
      className="sk-qr"
      src={`${API_PATH}/games/${encodeURIComponent(gameKey)}/qr.png`}
      alt="QR code of the scoreboard's link"
      width="180"
      height="180"
      onError={() => setFailed(true)}
    />
  );
}

/** The viewers' link, its QR code, the mini card's embed code and the streaming overlay. */
export function Share({ gameKey, gameName }: { gameKey: string; gameName: string }) {
  const origin = location.origin;
  const link = `${origin}${BASE_PATH}${pathTo('scoreboard', { gameKey })}`;
  const mini = `${origin}${BASE_PATH}${pathTo('scoreboardmini', { gameKey })}`;
  const title = gameName.replace(/[<>&"]/g, '');
  const embed = `<iframe src="${mini}" title="${title} scoreboard" width="360" height="200" style="border:0"></iframe>`;
  const overlay = `${mini}?overlay=1`;
  return (
    <div className="sk-share">
      <CopyField label="Link" value={link} />
      <QrCode gameKey={gameKey} />
      <CopyField label="Embed code" value={embed} />
      <CopyField label="Overlay link" value={overlay} />
      <p className="help">
        The overlay is the mini card on a transparent background, sized for a 1920×1080 stream: add
        it to your streaming software as a browser source.{' '}
        <a href={overlay} target="_blank" rel="noopener">
          Open the overlay
        </a>
      </p>
    </div>
  );
}

export function DeleteGame({ gameKey }: { gameKey: string }) {
  const remove = useDeleteGame(gameKey);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
        Delete this game
      </button>
    );
  }
  return (
    <div className="confirm" role="alertdialog" aria-labelledby="sk-delete-q">
      <p id="sk-delete-q">
        Delete this game? Viewers will no longer find it. This cannot be undone.
      </p>
      <ErrorMessage error={remove.error} />
      <div className="btn-row">
        <WriteButton
          write={remove}
          className="btn danger"
          // The live board turns to not-found (and drops this panel) before the delete answers:
          // the promise still settles after that, where a per-call onSuccess would not.
          onClick={() =>
            void remove.mutateAsync().then(
              () => navigate(pathTo('scoreboards')),
              () => undefined,
            )
          }
        >
          Delete
        </WriteButton>
        <button type="button" className="btn" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
