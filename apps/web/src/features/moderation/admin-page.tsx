import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import type { ModerationQueue } from '@sagan/shared/moderation';
import { api } from '../../lib/api.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { NotFound } from '../../components/not-found.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import './admin.css';

const QUEUE_KEY = ['admin', 'reports'];
const ACTION_WORDS = { hide: 'hid', unhide: 'restored', dismiss: 'dismissed the reports of' };

function useModerate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ gameKey, action }: { gameKey: string; action: keyof typeof ACTION_WORDS }) =>
      api('POST', `/admin/games/${encodeURIComponent(gameKey)}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: QUEUE_KEY }),
  });
}

const when = (iso: string) =>
  new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

/** A titled part of the queue: its list, or what it says when there is nothing in it. */
function QueueSection<T>({
  id,
  title,
  empty,
  items,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  items: T[];
  children: (items: T[]) => ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {items.length === 0 ? <p className="muted">{empty}</p> : children(items)}
    </section>
  );
}

/** The operators' report queue: hide a reported game, dismiss its reports, restore a game. */
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
  const { reports, hidden, actions } = queue.data;
  const busy = moderate.isPending;
  return (
    <section className="page narrow admin-page">
      <h1>Moderation</h1>
      {moderate.error && (
        <p className="form-error" role="alert">
          {moderate.error.message}
        </p>
      )}
      <QueueSection id="reports-h" title="Reported games" empty="No open reports." items={reports}>
        {(items) => (
          <ul className="admin-list">
            {items.map((r) => (
              <li key={r.gameKey} className="card">
                <h3>
                  <Link to={pathTo('scoreboard', { gameKey: r.gameKey })}>
                    {r.gameName || 'Untitled game'}
                  </Link>
                </h3>
                <p className="muted">
                  By {r.ownerName ?? 'someone'} ·{' '}
                  {r.reports === 1 ? '1 report' : `${r.reports} reports`} since{' '}
                  {when(r.firstReportedAt)}
                </p>
                {r.reasons.length > 0 && (
                  <ul className="admin-reasons">
                    {r.reasons.map((reason, i) => (
                      <li key={i}>“{reason}”</li>
                    ))}
                  </ul>
                )}
                <div className="btn-row">
                  <button
                    type="button"
                    className="btn danger"
                    disabled={busy}
                    onClick={() => moderate.mutate({ gameKey: r.gameKey, action: 'hide' })}
                  >
                    Hide game
                  </button>
                  <button
                    type="button"
                    className="btn"
                    disabled={busy}
                    onClick={() => moderate.mutate({ gameKey: r.gameKey, action: 'dismiss' })}
                  >
                    Dismiss
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueueSection>
      <QueueSection id="hidden-h" title="Hidden games" empty="No hidden games." items={hidden}>
        {(items) => (
          <ul className="admin-list">
            {items.map((h) => (
              <li key={h.gameKey} className="card">
                <h3>{h.gameName || 'Untitled game'}</h3>
                <p className="muted">Hidden {when(h.hiddenAt)}</p>
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  onClick={() => moderate.mutate({ gameKey: h.gameKey, action: 'unhide' })}
                >
                  Restore
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueueSection>
      <QueueSection id="log-h" title="What was done" empty="Nothing yet." items={actions}>
        {(items) => (
          <ul className="admin-log">
            {items.map((a, i) => (
              <li key={i}>
                {when(a.at)}: {a.adminName ?? 'An operator'} {ACTION_WORDS[a.action]} game{' '}
                <code>{a.gameKey}</code>
              </li>
            ))}
          </ul>
        )}
      </QueueSection>
    </section>
  );
}
