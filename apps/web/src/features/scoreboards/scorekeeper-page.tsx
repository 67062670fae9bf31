import { useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { keySchema } from '@sagan/shared/keys';
import { pathTo } from '@sagan/shared/routes';
import type { ScoreboardFields } from '@sagan/shared/scoreboard';
import { boardSpec } from '@sagan/shared/scoreboard-boards';
import {
  applyIntent,
  FINAL,
  STARTING_SOON,
  type Intent,
  type Team,
} from '@sagan/shared/scorekeeping';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameHistoryTopic } from '@sagan/shared/topics/game-history';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useKept } from '../../lib/kept.ts';
import { useOutbox } from '../../lib/outbox.ts';
import { useServiceWorker } from '../../lib/service-worker.ts';
import { useLive } from '../../lib/realtime.ts';
import { useGame } from './api/use-game.ts';
import { HiddenNotice } from './components/hidden-notice.tsx';
import { Board } from './boards/board.tsx';
import {
  CommentForm,
  DeleteGame,
  History,
  Messages,
  Share,
  TagsForm,
} from './scorekeeper/around.tsx';
import { ClockControls } from './scorekeeper/clock-controls.tsx';
import { Controls } from './scorekeeper/controls.tsx';
import { EditFields } from './scorekeeper/edit-fields.tsx';
import { hasRules, RulesForm } from './scorekeeper/rule-fields.tsx';
import { HeldNotice } from './scorekeeper/held-notice.tsx';
import { ScorerPick, SheetsPanel } from './scorekeeper/scorer-pick.tsx';
import { useGameSheets } from './scorekeeper/api.ts';
import { CoscorersPanel } from '../../components/coscorers/coscorers-panel.tsx';
import { ScorerGate, useCoscorer } from '../../components/coscorers/scorer-gate.tsx';
import { deviceId, gameStream, withPending, type GameBase } from './scorekeeper/game-stream.ts';
import './scoreboards.css';
import './scorekeeper/scorekeeper.css';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="card sk-panel" onToggle={(e) => setOpen(e.currentTarget.open)}>
      {/* The summary is styled as a flex row, which hides the browser's own triangle: the
          chevron and aria-expanded say open or closed instead. */}
      <summary aria-expanded={open}>
        {title}
        <span className="sk-chevron" aria-hidden="true" />
      </summary>
      {open && children}
    </details>
  );
}

function SyncStatus({
  online,
  waiting,
  error,
}: {
  online: boolean;
  waiting: number;
  error: string | null;
}) {
  const changes = waiting === 1 ? '1 change' : `${waiting} changes`;
  let text = 'All changes saved';
  if (!online) text = waiting ? `Offline, ${changes} waiting` : 'Offline';
  else if (waiting) text = `Sending ${changes}…`;
  return (
    <>
      <p className={`sk-status${online ? '' : ' sk-offline'}`} role="status" data-waiting={waiting}>
        {text}
      </p>
      {error && <ErrorMessage error={error} />}
    </>
  );
}

type GameData = NonNullable<ReturnType<typeof useGame>['data']>;
type Entries = Parameters<typeof History>[0]['entries'];
interface Kept {
  seq: number;
  game: GameData;
  entries: Entries;
}

/**
 * Checks a kept game (written by this or an older build): opened offline, from the service
 * worker's copy, the scorekeeper shows it and queues taps on it until the live topic is back.
 */
function parseKept(value: unknown): Kept | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<Record<keyof Kept, unknown>>;
  const game = gameTopic.schema.safeParse(v.game);
  const history = gameHistoryTopic.schema.safeParse({ entries: v.entries });
  if (typeof v.seq !== 'number' || !game.data || !history.data) return null;
  return { seq: v.seq, game: game.data, entries: history.data.entries };
}

/** SPEC §2-style scorer's screen, the owner's or a co-scorer's: score a game from the browser (DESIGN §9). */
export default function ScorekeeperPage() {
  const { gameKey = '' } = useParams();
  const validKey = keySchema.safeParse(gameKey).success;
  // The history topic is the scorers' alone: anyone else is refused, and gets not-found.
  const history = useLive(gameHistoryTopic, validKey ? gameKey : null);
  const game = useGame(validKey ? gameKey : null);
  const live = useMemo<Kept | null>(
    () =>
      game.data && history.data && game.seq !== undefined
        ? { seq: game.seq, game: game.data, entries: history.data.entries }
        : null,
    [game.data, game.seq, history.data],
  );
  const kept = useKept(
    `scoregame:${validKey ? gameKey : '-'}`,
    live,
    live ? `${live.seq}:${history.seq}` : undefined,
    parseKept,
  );
  useServiceWorker();
  usePageTitle(game.data ? `Score ${game.data.top.gameName}` : 'Score a game');
  if (!validKey) return <NotFound what="scoreboard" />;
  const shown = live ?? kept;
  // The gate stays mounted whatever the topics say: a removed co-scorer's socket loses the
  // history topic as their scoring list changes, and the gate's "You no longer score this
  // game" must win over not-found whichever arrives first.
  return (
    <ScorerGate kind="game" gameKey={gameKey}>
      {history.error || history.data === null || game.data === null ? (
        <NotFound what="scoreboard" />
      ) : game.error ? (
        <ErrorMessage error={game.error} />
      ) : !shown ? (
        <Loading />
      ) : (
        <Scorekeeper
          key={gameKey}
          gameKey={gameKey}
          game={shown.game}
          seq={shown.seq}
          history={shown.entries}
        />
      )}
    </ScorerGate>
  );
}

function Scorekeeper({
  gameKey,
  game,
  seq,
  history,
}: {
  gameKey: string;
  game: GameData;
  seq: number;
  history: Entries;
}) {
  const stream = useMemo(() => gameStream(gameKey), [gameKey]);
  const live = useMemo<GameBase>(() => ({ seq, top: game.top }), [seq, game.top]);
  const box = useOutbox(stream, live);
  // Taps made here this session: Undo voids this device's own last event in the game's log
  // (DESIGN §10), so another phone's taps are never taken back.
  const [undoable, setUndoable] = useState(0);
  // Between a tap's answer and the live frame that shows it, the outbox knows the newer state:
  // built on the live one alone, the screen would step back a moment, and a tap made then
  // would say it was made in the set just ended (and be held).
  const newest = box.base && box.base.seq > live.seq ? box.base : live;
  const shown: ScoreboardFields = withPending(newest, box.items);
  const spec = boardSpec(shown.sportID);

  // Who scored: after a scoring tap for a team linked to a sheet, its players are offered.
  const sheets = useGameSheets(gameKey);
  // Whose scorer is asked for: a team's last score, or (baseball) the batter of its last hit.
  const [picking, setPicking] = useState<{ team: Team; tap?: 'hit' } | null>(null);

  function act(intent: Intent) {
    const patch = applyIntent(shown, intent);
    // A hit or an error on a 0–0 count changes nothing on the board, but the line score and
    // the box score count it.
    const counted = intent.kind === 'hit' || intent.kind === 'error';
    if (Object.keys(patch).length === 0 && !counted) return;
    setUndoable((n) => n + 1);
    box.enqueue({ ...intent, madeIn: shown.gamePeriod });
    const scored =
      intent.kind === 'score' || intent.kind === 'goal' || intent.kind === 'behind' ? intent : null;
    const batting: Team = shown.homePossession ? 'home' : 'away';
    setPicking(
      scored && scored.by > 0 && sheets.data?.[scored.team]
        ? { team: scored.team }
        : intent.kind === 'hit' && sheets.data?.[batting]
          ? { team: batting, tap: 'hit' }
          : null,
    );
  }
  function pick(team: Team, player: string, tap?: 'hit') {
    setPicking(null);
    setUndoable((n) => n + 1);
    box.enqueue({
      kind: 'scorer',
      team,
      player,
      ...(tap ? { tap } : {}),
      madeIn: shown.gamePeriod,
    });
  }
  const pickSheet = picking ? sheets.data?.[picking.team] : null;
  function takeBack() {
    if (!undoable) return;
    setPicking(null);
    setUndoable((n) => n - 1);
    box.enqueue({ kind: 'undo', madeIn: shown.gamePeriod });
  }
  const setPeriod = (gamePeriod: string) => act({ kind: 'set', values: { gamePeriod } });
  // A co-scorer scores; the game's name, tags, messages, sharing and deletion stay the owner's.
  const coscorer = useCoscorer();

  return (
    <section className="page scorekeeper-page">
      <div className="sk-top">
        <SyncStatus online={box.online} waiting={box.items.length} error={box.error} />
        <button type="button" className="sk-btn sk-undo" disabled={!undoable} onClick={takeBack}>
          Undo
        </button>
      </div>
      <HeldNotice gameKey={gameKey} device={deviceId()} />
      {game.hidden && <HiddenNotice gameKey={gameKey} scoreLink={false} />}
      {coscorer && (
        <p className="co-note muted">
          You score this game with {coscorer.ownerName ?? 'its owner'}, who can remove you.
        </p>
      )}
      <Board game={{ ...game.top, ...shown }} />
      <Controls
        kind={spec.kind}
        game={shown}
        onIntent={act}
        below={
          picking &&
          pickSheet && (
            <ScorerPick
              teamName={picking.team === 'home' ? shown.homeTeamName : shown.awayTeamName}
              sheet={pickSheet}
              hit={picking.tap === 'hit'}
              onPick={(player) => pick(picking.team, player, picking.tap)}
              onSkip={() => setPicking(null)}
            />
          )
        }
      />
      <section className="sk-period" aria-label="Period">
        <button
          type="button"
          className="sk-btn sk-minus"
          onClick={() => act({ kind: 'period', step: -1 })}
        >
          ‹ Period
        </button>
        <button type="button" className="sk-btn" onClick={() => act({ kind: 'period', step: 1 })}>
          Next period ›
        </button>
        <button type="button" className="sk-btn sk-minus" onClick={() => setPeriod(STARTING_SOON)}>
          {STARTING_SOON}
        </button>
        <button type="button" className="sk-btn sk-final" onClick={() => setPeriod(FINAL)}>
          {FINAL}
        </button>
      </section>
      {spec.clock && <ClockControls gameKey={gameKey} />}
      <Panel title="Edit the scoreboard">
        <EditFields
          game={shown}
          locked={coscorer ? ['gameName'] : []}
          onSave={(values) => act({ kind: 'set', values })}
        />
      </Panel>
      <Panel title="Changes">
        <History
          gameKey={gameKey}
          device={deviceId()}
          entries={history}
          names={shown}
          ownDeviceOnly={!!coscorer}
        />
      </Panel>
      {!coscorer && (
        <>
          {hasRules(shown.sportID) && (
            <Panel title="Rules">
              <RulesForm game={shown} onSave={(values) => act({ kind: 'set', values })} />
            </Panel>
          )}
          <Panel title="Comment">
            <CommentForm gameKey={gameKey} game={shown} />
          </Panel>
          <Panel title="Tags">
            <TagsForm gameKey={gameKey} tags={game.tags} />
          </Panel>
          <Panel title="Messages">
            <Messages gameKey={gameKey} />
          </Panel>
          <Panel title="Share">
            <Share gameKey={gameKey} gameName={shown.gameName} />
          </Panel>
          <Panel title="Who scored: team sheets">
            <SheetsPanel
              gameKey={gameKey}
              homeTeamName={shown.homeTeamName}
              awayTeamName={shown.awayTeamName}
            />
          </Panel>
          <Panel title="Co-scorers">
            <CoscorersPanel kind="game" gameKey={gameKey} />
          </Panel>
          <Panel title="Delete">
            <DeleteGame gameKey={gameKey} />
          </Panel>
        </>
      )}
      <p>
        <Link to={pathTo('scoreboard', { gameKey })}>Open the viewers&apos; scoreboard</Link>
      </p>
    </section>
  );
}
