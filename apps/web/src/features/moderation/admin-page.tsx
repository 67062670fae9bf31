import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { shorten, type ModerationQueue } from '@sagan/shared/moderation';
import { api } from '../../lib/api.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import './admin.css';

const QUEUE_KEY = ['admin', 'reports'];
const ACTION_WORDS = {
  hide: 'hid',
  unhide: 'restored',
  dismiss: 'dismissed the reports of',
  block: 'blocked from public games',
  unblock: 'unblocked',
};
type Action = keyof typeof ACTION_WORDS;
type Target = ModerationQueue['actions'][number]['target'];
/** Where each kind of thing is acted on: /admin/{games,comments,tags}/:key/:action. */
const TARGET_PATH: Record<Target, string> = {
  game: 'games',
  comment: 'comments',
  tag: 'tags',
  user: 'users',
};
interface Moderation {
  target: Target;
  key: string;
  action: Action;
}

function useModerate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ target, key, action }: Moderation) =>
      api('POST', `/admin/${TARGET_PATH[target]}/${encodeURIComponent(key)}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: QUEUE_KEY }),
  });
}

const when = (iso: string) =>
  new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

interface Item {
  /** The game's key, the comment's id or the tag's key: what the actions are on. */
  key: string;
  title: string;
  /** The page that shows it, which an operator sees even when it is hidden (a person: none). */
  to?: string;
  /** What the operator reads about it before acting. */
  details: ReactNode;
  /** Each on the section's own kind of thing, unless it names another (a game's owner). */
  actions: { label: string; action: Action; danger?: boolean; on?: Omit<Moderation, 'action'> }[];
}

/**
 * One section of games, comments or tags with the actions an operator can take on each: the
 * reported ones and the hidden ones. Each links to the page that shows it.
 */
function ModerationSection({
  id,
  title,
  target,
  empty,
  items,
  busy,
  onAction,
}: {
  id: string;
  title: string;
  target: Target;
  empty: string;
  items: Item[];
  busy: boolean;
  onAction: (m: Moderation) => void;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="admin-list">
          {items.map((item) => (
            <li key={item.key} className="card">
              <h3>{item.to ? <Link to={item.to}>{item.title}</Link> : item.title}</h3>
              {item.details}
              <div className="btn-row">
                {item.actions.map(({ label, action, danger, on }) => (
                  <button
                    key={action}
                    type="button"
                    className={danger ? 'btn danger' : 'btn'}
                    disabled={busy}
                    onClick={() => onAction({ target, key: item.key, ...on, action })}
                  >
                    {label}
                  </button>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const gameTitle = (name: string) => name || 'Untitled game';
const gamePage = (gameKey: string) => pathTo('scoreboard', { gameKey });

function Reasons({ reasons }: { reasons: string[] }) {
  if (reasons.length === 0) return null;
  return (
    <ul className="admin-reasons">
      {reasons.map((reason, i) => (
        <li key={i}>“{reason}”</li>
      ))}
    </ul>
  );
}

const reportCount = (n: number, since: string) =>
  `${n === 1 ? '1 report' : `${n} reports`} since ${when(since)}`;

/** Who made a reported game or comment, how often and since when it was reported, and why. */
function ReportDetails({
  on,
  report: r,
}: {
  /** The game a reported comment is on. */
  on?: string;
  report: ModerationQueue['reportedComments'][number] | ModerationQueue['reports'][number];
}) {
  return (
    <>
      <p className="muted">
        {on ? `On ${on}, by` : 'By'} {r.ownerName ?? 'someone'} ·{' '}
        {reportCount(r.reports, r.firstReportedAt)}
      </p>
      <Reasons reasons={r.reasons} />
    </>
  );
}

const RESTORE: Item['actions'] = [{ label: 'Restore', action: 'unhide' }];

/**
 * A tag is nobody's and nobody reports it: an operator who meets one that should not be public
 * pastes its page's link (or its key) here.
 */
function HideTag({ busy, onHide }: { busy: boolean; onHide: (tagKey: string) => void }) {
  const [text, setText] = useState('');
  const tagKey = /([\w-]+)\/?$/.exec(text.trim())?.[1] ?? '';
  return (
    <form
      className="admin-hide-tag"
      onSubmit={(e) => {
        e.preventDefault();
        if (!tagKey) return;
        onHide(tagKey);
        setText('');
      }}
    >
      <label htmlFor="hide-tag">Hide a tag: its page&apos;s link or its key</label>
      <div className="btn-row">
        <input
          id="hide-tag"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="…/taggedscoreboards/…"
        />
        <button type="submit" className="btn danger" disabled={busy || !tagKey}>
          Hide tag
        </button>
      </div>
    </form>
  );
}

/** What one line of the log says the action was on. */
function LoggedTarget({ a }: { a: ModerationQueue['actions'][number] }) {
  if (a.target === 'tag') return <>tag #{a.detail}</>;
  if (a.target === 'user') return <>{a.detail || 'a person'}</>;
  const game = (
    <>
      game {a.gameName && <>“{a.gameName}” </>}
      <code>{a.gameKey}</code>
    </>
  );
  if (a.target === 'comment') {
    return (
      <>
        a comment {a.detail && <>“{shorten(a.detail)}” </>}on {game}
      </>
    );
  }
  return game;
}

/**
 * The operators' report queue: hide a reported game or comment, dismiss its reports, hide a
 * tag, restore any of them; and the log of what was done.
 */
export default function AdminPage() {
  usePageTitle('Moderation');
  const queue = useQuery({
    queryKey: QUEUE_KEY,
    queryFn: () => api<ModerationQueue>('GET', '/admin/reports'),
    retry: false,
  });
  const moderate = useModerate();
  if (queue.isPending) return <Loading />;
  // Not an operator: the server says this page does not exist, and so does the screen.
  if (queue.error && 'status' in queue.error && queue.error.status === 404) return <NotFound />;
  if (queue.error) return <ErrorMessage error={queue.error} />;
  const { reports, hidden, reportedComments, hiddenComments, hiddenTags, blocked, actions } =
    queue.data;
  const busy = moderate.isPending;
  const onAction = (m: Moderation) => moderate.mutate(m);
  // Every section acts through the one mutation, and waits while it runs.
  const acting = { busy, onAction };
  return (
    <section className="page narrow admin-page">
      <h1>Moderation</h1>
      {moderate.error && (
        <p className="form-error" role="alert">
          {moderate.error.message}
        </p>
      )}
      <ModerationSection
        id="reports-h"
        title="Reported games"
        empty="No open reports."
        {...acting}
        target="game"
        items={reports.map((r) => ({
          key: r.gameKey,
          title: gameTitle(r.gameName),
          to: gamePage(r.gameKey),
          details: <ReportDetails report={r} />,
          actions: [
            { label: 'Hide game', action: 'hide', danger: true },
            { label: 'Dismiss', action: 'dismiss' },
            {
              label: 'Block its owner',
              action: 'block',
              danger: true,
              on: { target: 'user', key: r.ownerUid },
            },
          ],
        }))}
      />
      <ModerationSection
        id="reported-comments-h"
        title="Reported comments"
        empty="No open reports of comments."
        {...acting}
        target="comment"
        items={reportedComments.map((r) => ({
          key: r.commentId,
          title: `“${shorten(r.text)}”`,
          to: gamePage(r.gameKey),
          details: <ReportDetails on={gameTitle(r.gameName)} report={r} />,
          actions: [
            { label: 'Hide comment', action: 'hide', danger: true },
            { label: 'Dismiss', action: 'dismiss' },
          ],
        }))}
      />
      <ModerationSection
        id="hidden-h"
        title="Hidden games"
        empty="No hidden games."
        {...acting}
        target="game"
        items={hidden.map((h) => ({
          key: h.gameKey,
          title: gameTitle(h.gameName),
          to: gamePage(h.gameKey),
          details: <p className="muted">Hidden {when(h.hiddenAt)}</p>,
          actions: RESTORE,
        }))}
      />
      <ModerationSection
        id="hidden-comments-h"
        title="Hidden comments"
        empty="No hidden comments."
        {...acting}
        target="comment"
        items={hiddenComments.map((c) => ({
          key: c.commentId,
          title: `“${shorten(c.text)}”`,
          to: gamePage(c.gameKey),
          details: (
            <p className="muted">
              On {gameTitle(c.gameName)} · hidden {when(c.hiddenAt)}
            </p>
          ),
          actions: RESTORE,
        }))}
      />
      <ModerationSection
        id="hidden-tags-h"
        title="Hidden tags"
        empty="No hidden tags."
        {...acting}
        target="tag"
        items={hiddenTags.map((tag) => ({
          key: tag.tagKey,
          title: `#${tag.name}`,
          to: pathTo('taggedScoreboards', { tagID: tag.tagKey }),
          details: <p className="muted">Hidden {when(tag.hiddenAt)}</p>,
          actions: RESTORE,
        }))}
      />
      <HideTag busy={busy} onHide={(key) => onAction({ target: 'tag', key, action: 'hide' })} />
      <ModerationSection
        id="blocked-h"
        title="Blocked from public games"
        target="user"
        empty="Nobody is blocked."
        {...acting}
        items={blocked.map((b) => ({
          key: b.uid,
          title: b.name ?? 'Someone',
          details: <p className="muted">Blocked {when(b.blockedAt)}</p>,
          actions: [{ label: 'Unblock', action: 'unblock' }],
        }))}
      />
      <section aria-labelledby="log-h">
        <h2 id="log-h">What was done</h2>
        {actions.length === 0 ? (
          <p className="muted">Nothing yet.</p>
        ) : (
          <ul className="admin-log">
            {actions.map((a, i) => (
              <li key={i}>
                {when(a.at)}: {a.adminName ?? 'An operator'} {ACTION_WORDS[a.action]}{' '}
                <LoggedTarget a={a} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
