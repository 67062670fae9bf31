import { useParams, useSearchParams } from 'react-router';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { gameDetailTopic, gameTopic } from '../../lib/viewer-topics.ts';
import { keyReader } from '../../lib/shell-readers.ts';
import { useLive } from '../../lib/realtime.ts';
import { SummaryCard } from './components/summary-card.tsx';
import { useGameClock } from './boards/board-frame.tsx';
import { FINAL } from '@sagan/shared/scoreboard-basics';
import { boardKind } from '@sagan/shared/sports';
import { tennisLine } from './components/tennis-line.ts';
import './scoreboards.css';

/**
 * SPEC §2 scoreboardmini: one live summary card alone, made to be embedded in an iframe; with
 * ?overlay=1, on a transparent page for streaming software.
 */
export default function ScoreboardMiniPage() {
  const { gameKey = '' } = useParams();
  const [search] = useSearchParams();
  const overlay = search.get('overlay') === '1';
  const validKey = keyReader.safeParse(gameKey).success;
  const game = useLive(gameTopic, validKey ? gameKey : '-');
  // The clock ticks from its state as on the full board; a Final game shows none.
  const { text: clock } = useGameClock(validKey ? gameKey : '-');
  usePageTitle(game.data?.top.gameName ?? 'Scoreboard');
  // Tennis reads like the board: its tiebreaks' points are folded from the log, on the line
  // score's topic, which only a tennis card subscribes to.
  const top = game.data?.top;
  const isTennis = !!top && boardKind(top.sportID) === 'tennis';
  const detail = useLive(gameDetailTopic, isTennis ? gameKey : null);
  let body;
  if (game.loading) body = <Loading />;
  else if (game.error) body = <p className="form-error">{game.error}</p>;
  else if (!game.data) body = <p className="muted">We could not find this scoreboard.</p>;
  // Embedded on another site, the card opens the full board in a new tab.
  else {
    const top = game.data.top;
    const tiebreaks = new Map(
      (detail.data?.lineScore.periods ?? []).flatMap((p) =>
        p.tiebreak ? [[p.label, p.tiebreak] as const] : [],
      ),
    );
    const tennis = isTennis
      ? { home: tennisLine(top, tiebreaks, 'home'), away: tennisLine(top, tiebreaks, 'away') }
      : undefined;
    body = (
      <SummaryCard
        game={top}
        newTab
        clock={top.gamePeriod === FINAL ? null : clock}
        tennis={tennis}
      />
    );
  }
  return <main className={`mini-page${overlay ? ' mini-overlay' : ''}`}>{body}</main>;
}
