import type { ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
type Action = keyof typeof ACTION_WORDS;

function useModerate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ gameKey, action }: { gameKey: string; action: Action }) =>
      api('POST', `/admin/games/${encodeURIComponent(gameKey)}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: QUEUE_KEY }),
  });
}

const when = (iso: string) =>
  new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

interface Item {
  gameKey: string;
  gameName: string;
  /** What the operator reads about the game before acting. */
  details: ReactNode;
  actions: { label: string; action: Action; danger?: boolean }[];
}

/**
 * One section of games with the actions an operator can take on each: the reported games and
 * the hidden ones. Each game links to its board, which an operator sees even when it is hidden.
 */
function GameSection({
  id,
  title,
  empty,
  items,
  busy,
  onAction,
}: {
  id: string;
  title: string;
  empty: string;
  items: Item[];
  busy: boolean;
  onAction: (gameKey: string, action: Action) => void;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="admin-list">
          {items.map((item) => (
            <li key={item.gameKey} className="card">
              <h3>
                <Link to={pathTo('scoreboard', { gameKey: item.gameKey })}>
                  {item.gameName || 'Untitled game'}
                </Link>
              </h3>
              {item.details}
              <div className="btn-row">
                {item.actions.map(({ label, action, danger }) => (
                  <button
                    key={action}
                    type="button"
                    className={danger ? 'btn danger' : 'btn'}
                    disabled={busy}
                    onClick={() => onAction(item.gameKey, action)}
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
  const onAction = (gameKey: string, action: Action) => moderate.mutate({ gameKey, action });
  return (
    <section className="page narrow admin-page">
      <h1>Moderation</h1>
      {moderate.error && (
        <p className="form-error" role="alert">
          {moderate.error.message}
        </p>
      )}
      <GameSection
        id="reports-h"
        title="Reported games"
        empty="No open reports."
        busy={busy}
        onAction={onAction}
        items={reports.map((r) => ({
          gameKey: r.gameKey,
          gameName: r.gameName,
          details: (
            <>
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
            </>
          ),
          actions: [
            { label: 'Hide game', action: 'hide', danger: true },
            { label: 'Dismiss', action: 'dismiss' },
          ],
        }))}
      />
      <GameSection
        id="hidden-h"
        title="Hidden games"
        empty="No hidden games."
        busy={busy}
        onAction={onAction}
        items={hidden.map((h) => ({
          gameKey: h.gameKey,
          gameName: h.gameName,
          details: <p className="muted">Hidden {when(h.hiddenAt)}</p>,
          actions: [{ label: 'Restore', action: 'unhide' }],
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
                {when(a.at)}: {a.adminName ?? 'An operator'} {ACTION_WORDS[a.action]} game{' '}
                {a.gameName && <>“{a.gameName}” </>}
                <code>{a.gameKey}</code>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
