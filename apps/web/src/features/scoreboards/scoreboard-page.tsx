import { Link, useParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { boardKind } from '@sagan/shared/sports';
import type { GameComment } from '@sagan/shared/scoreboard-views';
import { ExternalLink, useHasExternalLink } from '../../components/external-link.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { keyReader } from '../../lib/shell-readers.ts';
import { useGame } from './api/use-game.ts';
import { useWatchers } from './api/use-scoreboard-actions.ts';
import { Board } from './boards/board.tsx';
import { LineScore } from './boards/line-score.tsx';
import { BoxScore } from './boards/box-score.tsx';
import { BookmarkToggle } from './components/bookmark-toggle.tsx';
import { HiddenNotice } from './components/hidden-notice.tsx';
import { EyeIcon } from './components/icons.tsx';
import { MessageBox } from './components/message-box.tsx';
import { ReportComment, ReportGame } from './components/report-game.tsx';
import { ScoreAnnouncer } from './components/score-announcer.tsx';
import { SunToggle, useSunMode } from './components/sun-toggle.tsx';
import './scoreboards.css';

function Watchers({ gameKey }: { gameKey: string }) {
  const watchers = useWatchers(gameKey);
  const n = watchers.data?.watchers;
  // The line is on the page from the server's first paint, only its count coming later: a line
  // that appeared once the app had asked (seconds after the board) was the page's largest
  // paint, so the board counted as shown only then. The viewer is one of the watchers: a 0 is
  // an answer that does not count them yet (their subscription had not reached the server),
  // so the count stays a dash until one that does. The count is last: nothing moves for it.
  return (
    <p className="watchers muted">
      <EyeIcon />
      <span>
        Watching now:{'\u00a0'}
        <span className="watchers-count">{n && n >= 1 ? n : '–'}</span>
      </span>
    </p>
  );
}

function Promo() {
  if (!useHasExternalLink('promo')) return null;
  return (
    <p className="promo">
      <ExternalLink to="promo">Score your games free with the Sagan app</ExternalLink>
    </p>
  );
}

function Comment({
  comment,
  gameKey,
  reportable,
}: {
  comment: GameComment;
  gameKey: string;
  reportable: boolean;
}) {
  const hasScore = comment.homeTeamName || comment.awayTeamName;
  return (
    <li className={comment.hidden ? 'comment comment-hidden' : 'comment'}>
      {/* Only the game's scorers and the operators are shown a hidden comment, so marked. */}
      {comment.hidden && (
        <p className="hidden-marker">Hidden by a moderator: only this game&apos;s scorers see it</p>
      )}
      <p className="comment-text">{comment.gameComment}</p>
      {hasScore && (
        <p className="comment-score muted">
          {comment.homeTeamName} {comment.homeScore} – {comment.awayTeamName} {comment.awayScore}
        </p>
      )}
      {comment.imageURL && (
        <img src={comment.imageURL} alt="Photo from the scorekeeper" loading="lazy" />
      )}
      <time className="muted" dateTime={new Date(comment.timeStamp).toISOString()}>
        {new Date(comment.timeStamp).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })}
      </time>
      {reportable && !comment.hidden && <ReportComment gameKey={gameKey} commentId={comment.id} />}
    </li>
  );
}

/** SPEC §2 Scoreboard screen. */
export default function ScoreboardPage() {
  const { gameKey = '' } = useParams();
  const validKey = keyReader.safeParse(gameKey).success;
  const game = useGame(validKey ? gameKey : '-');
  const [sun, toggleSun] = useSunMode();
  usePageTitle(game.data?.top.gameName ?? 'Scoreboard');

  if (!validKey) return <NotFound what="scoreboard" />;
  if (game.loading) return <Loading />;
  if (game.error) return <ErrorMessage error={game.error} />;
  // DESIGN §8: a missing scoreboard gets a friendly not-found, not an empty area.
  if (!game.data) return <NotFound what="scoreboard" />;
  const { top, comments, tags, hidden } = game.data;

  return (
    <section className={`page scoreboard-page${sun ? ' sun-mode' : ''}`}>
      {hidden && <HiddenNotice gameKey={gameKey} scoreLink />}
      <div className="scoreboard-toolbar">
        {/* A hidden game has no public page to bookmark, watch or report. */}
        {!hidden && <BookmarkToggle gameKey={gameKey} />}
        {!hidden && <Watchers gameKey={gameKey} />}
        <SunToggle on={sun} onToggle={toggleSun} />
      </div>
      <Board game={top} />
      {/* Tennis's board shows every set's games itself. */}
      {boardKind(top.sportID) !== 'tennis' && <LineScore gameKey={gameKey} game={top} />}
      <BoxScore gameKey={gameKey} game={top} />
      <ScoreAnnouncer game={top} />
      {tags.length > 0 && (
        <ul className="tag-links" aria-label="Tags">
          {tags.map((t) => (
            <li key={t.key}>
              {t.hidden ? (
                <span className="tag-hidden" title="Hidden by a moderator: only its scorers see it">
                  #{t.name} (hidden)
                </span>
              ) : (
                <Link to={pathTo('taggedScoreboards', { tagID: t.key })}>#{t.name}</Link>
              )}
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="comments-h">
        <h2 id="comments-h">Comments</h2>
        {comments.length ? (
          <ul className="comments">
            {comments.map((c) => (
              <Comment key={c.id} comment={c} gameKey={gameKey} reportable={!hidden} />
            ))}
          </ul>
        ) : (
          <p className="muted">No comments yet.</p>
        )}
      </section>
      {!hidden && <MessageBox gameKey={gameKey} />}
      {!hidden && <ReportGame gameKey={gameKey} />}
      <Promo />
    </section>
  );
}
