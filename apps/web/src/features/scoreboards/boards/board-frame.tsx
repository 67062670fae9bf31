import { useEffect, useState, type ReactNode } from 'react';
import { clockText } from '@sagan/shared/clock-display';
import { showsStart } from '@sagan/shared/game-schedule';
import type { BoardSpec } from '@sagan/shared/scoreboard-boards';
import type { PublicScoreboard } from '@sagan/shared/scoreboard-views';
import { FINAL } from '@sagan/shared/scoreboard-basics';
import { sportName } from '@sagan/shared/sports';
import { clockTopic } from '../../../lib/viewer-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import { StartTime } from '../components/start-time.tsx';

export interface BoardProps {
  game: PublicScoreboard;
  spec: BoardSpec;
}

const TICK_MS = 250;

/**
 * On the server a running clock's time is left out: the rendered page is cached until the
 * clock's state changes, and a time in it would be frozen there. The slot (as wide as any time)
 * holds '--:--', and after-paint.js fills it in from the state the page carries.
 */
const RENDERING_ON_SERVER = typeof window === 'undefined';

/**
 * What the game clock shows now (DESIGN §9): the clock topic carries the clock's state and the
 * server's time, and a running clock is computed here against the server's clock (the offset
 * learnt from the frame), so the server sends nothing while it runs.
 */
export function useGameClock(gameKey: string) {
  const clock = useLive(clockTopic, gameKey);
  const data = clock.data ?? null;
  const [now, setNow] = useState(() => Date.now());
  const [offsetMs, setOffsetMs] = useState(0);
  const serverTime = data?.serverTime;
  const running = data?.running ?? false;
  useEffect(() => {
    if (serverTime === undefined) return;
    // A new frame: learn the offset, and show the clock as of now.
    const received = Date.now();
    const timer = setTimeout(() => {
      setOffsetMs(serverTime - received);
      setNow(received);
    });
    return () => clearTimeout(timer);
  }, [serverTime]);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [running]);
  if (RENDERING_ON_SERVER && running) return { clock: data, text: '--:--' };
  return { clock: data, text: data ? clockText(data, now + offsetMs) : null };
}

/** SPEC §2: the clock comes live from the clock topic. */
function GameClock({ gameKey }: { gameKey: string }) {
  const { clock, text } = useGameClock(gameKey);
  const time = text || '--:--';
  return (
    <span
      className="board-clock"
      role="timer"
      aria-label={`Clock ${time}`}
      data-seconds={clock?.seconds}
    >
      {time}
    </span>
  );
}

/** A small dot beside the team that has the ball, bats or serves. */
function Marker({ on, label }: { on: boolean; label: string }) {
  return on ? (
    <span className="board-marker" role="img" aria-label={label} title={label}>
      ●
    </span>
  ) : null;
}

/** One team's name, with its marker (serving, batting…), and its score where the sport keeps one. */
function TeamSide({
  game,
  spec,
  side,
  marker,
}: BoardProps & { side: 'home' | 'away'; marker: ReactNode }) {
  const name = side === 'home' ? game.homeTeamName : game.awayTeamName;
  return (
    <div className="board-team">
      <span className="board-team-name">
        {name} {marker}
      </span>
      {spec.score && (
        <span
          className="board-score"
          role="img"
          aria-label={`${name} ${spec.score.label.toLowerCase()} ${game[spec.score[side]]}`}
        >
          {String(game[spec.score[side]])}
        </span>
      )}
    </div>
  );
}

/**
 * The frame every board shares: name, period, clock, team names and the big score, then the
 * paired stat rows of the board's spec; each board adds its own extras as children.
 */
export function BoardFrame({
  game,
  spec,
  period,
  possession,
  homeMarker,
  awayMarker,
  children,
}: BoardProps & {
  period?: string;
  /**
   * What the dot beside the side named by `homePossession` says (has the ball, bats, serves);
   * without it, no dot.
   */
  possession?: string;
  homeMarker?: ReactNode;
  awayMarker?: ReactNode;
  children?: ReactNode;
}) {
  const home = possession ? <Marker on={game.homePossession} label={possession} /> : homeMarker;
  const away = possession ? <Marker on={!game.homePossession} label={possession} /> : awayMarker;
  return (
    <section className={`board board-${spec.kind}`} aria-label="Scoreboard">
      <header className="board-head">
        <h1 className="board-name">{game.gameName}</h1>
        <p className="board-meta">
          <span className="board-sport">{sportName(game.sportID)}</span>
          <span
            className="board-period"
            role="img"
            aria-label={`Period ${period ?? game.gamePeriod}`}
          >
            {period ?? game.gamePeriod}
          </span>
          {showsStart(game) && (
            <span className="board-start">
              Starts <StartTime at={game.startsAt} />
            </span>
          )}
          {spec.clock && game.gamePeriod !== FINAL && <GameClock gameKey={game.gameKey} />}
        </p>
      </header>
      <div className="board-teams">
        <TeamSide game={game} spec={spec} side="home" marker={home} />
        <TeamSide game={game} spec={spec} side="away" marker={away} />
      </div>
      {spec.score && <p className="board-score-label">{spec.score.label}</p>}
      {spec.stats.length > 0 && (
        <table className="board-stats">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Stat</span>
              </th>
              <th scope="col">{game.homeTeamName}</th>
              <th scope="col">{game.awayTeamName}</th>
            </tr>
          </thead>
          <tbody>
            {spec.stats.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{String(game[row.home])}</td>
                <td>{String(game[row.away])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {children}
    </section>
  );
}

/** A labelled single value of the board (Ball On, Balls, Outs...). */
export function BoardFact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="board-fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
