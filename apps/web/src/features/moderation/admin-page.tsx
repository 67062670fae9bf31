import { useId, useState, type ReactNode } from 'react';
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
  /** What kind of thing it is and its key (the game's, the comment's id…): what the actions are on. */
  target: Target;
  key: string;
  title: string;
  /** The page that shows it, which an operator sees even when it is hidden (a person: none). */
  to?: string;
  /** What the operator reads about it before acting. */
  details: ReactNode;
  /** Each on the section's own kind of thing, unless it names another (a game's owner). */
  actions: { label: string; action: Action; danger?: boolean; on?: Omit<Moderation, 'action'> }[];
}

interface Section {
  title: string;
  /** What it says when there is nothing in it. */
  empty: string;
  items: Item[];
  /** What follows the list, inside the section. */
  after?: ReactNode;
}

/**
 * One section of games, comments or tags with the actions an operator can take on each: the
 * reported ones and the hidden ones. Each links to the page that shows it.
 */
function ModerationSection({
  title,
  empty,
  items,
  after,
  busy,
  onAction,
}: Section & { busy: boolean; onAction: (m: Moderation) => void }) {
  const id = useId();
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
                    onClick={() => onAction({ target: item.target, key: item.key, ...on, action })}
                  >
                    {label}
                  </button>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      {after}
    </section>
  );
}

const gameTitle = (name: string) => name || 'Untitled game';
const gamePage = (gameKey: string) => pathTo('scoreboard', { gameKey });

/** A game, reported or hidden: its name, linked to its board. */
const gameItem = (g: { gameKey: string; gameName: string }) => ({
  target: 'game' as const,
  key: g.gameKey,
  title: gameTitle(g.gameName),
  to: gamePage(g.gameKey),
});

/** A comment, reported or hidden: its words, linked to the board it is on. */
const commentItem = (c: { commentId: string; text: string; gameKey: string }) => ({
  target: 'comment' as const,
  key: c.commentId,
  title: `“${shorten(c.text)}”`,
  to: gamePage(c.gameKey),
});

/** A tag: its name, linked to its page of games. */
const tagItem = (t: { tagKey: string; name: string }) => ({
  target: 'tag' as const,
  key: t.tagKey,
  title: `#${t.name}`,
  to: pathTo('taggedScoreboards', { tagID: t.tagKey }),
});

/** A person has no page: only their name. */
const personItem = (p: { uid: string; name: string | null }) => ({
  target: 'user' as const,
  key: p.uid,
  title: p.name ?? 'Someone',
});

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

/** A hidden game, comment or tag says since when (and a comment on which game), and can be restored. */
const hiddenSince = (at: string, on?: string): Pick<Item, 'details' | 'actions'> => ({
  details: (
    <p className="muted">
      {on ? `On ${on} · hidden` : 'Hidden'} {when(at)}
    </p>
  ),
  actions: [{ label: 'Restore', action: 'unhide' }],
});

const reportedGame = (r: ModerationQueue['reports'][number]): Item => ({
  ...gameItem(r),
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
});

const reportedComment = (r: ModerationQueue['reportedComments'][number]): Item => ({
  ...commentItem(r),
  details: <ReportDetails on={gameTitle(r.gameName)} report={r} />,
  actions: [
    { label: 'Hide comment', action: 'hide', danger: true },
    { label: 'Dismiss', action: 'dismiss' },
  ],
});

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
  // What was reported first, then what is hidden or blocked.
  const sections: Section[] = [
    { title: 'Reported games', empty: 'No open reports.', items: reports.map(reportedGame) },
    {
      title: 'Reported comments',
      empty: 'No open reports of comments.',
      items: reportedComments.map(reportedComment),
    },
    {
      title: 'Hidden games',
      empty: 'No hidden games.',
      items: hidden.map((h) => ({ ...gameItem(h), ...hiddenSince(h.hiddenAt) })),
    },
    {
      title: 'Hidden comments',
      empty: 'No hidden comments.',
      items: hiddenComments.map((c) => ({
        ...commentItem(c),
        ...hiddenSince(c.hiddenAt, gameTitle(c.gameName)),
      })),
    },
    {
      title: 'Hidden tags',
      empty: 'No hidden tags.',
      items: hiddenTags.map((tag) => ({ ...tagItem(tag), ...hiddenSince(tag.hiddenAt) })),
      after: (
        <HideTag busy={busy} onHide={(key) => onAction({ target: 'tag', key, action: 'hide' })} />
      ),
    },
    {
      title: 'Blocked from public games',
      empty: 'Nobody is blocked.',
      items: blocked.map((b) => ({
        ...personItem(b),
        details: <p className="muted">Blocked {when(b.blockedAt)}</p>,
        actions: [{ label: 'Unblock', action: 'unblock' }],
      })),
    },
  ];
  return (
    <section className="page narrow admin-page">
      <h1>Moderation</h1>
      {moderate.error && (
        <p className="form-error" role="alert">
          {moderate.error.message}
        </p>
      )}
      {/* Every section acts through the one mutation, and waits while it runs. */}
      {sections.map((section) => (
        <ModerationSection key={section.title} {...section} busy={busy} onAction={onAction} />
      ))}
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
