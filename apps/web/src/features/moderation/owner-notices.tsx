import { useState } from 'react';
import { Link } from 'react-router';
import { AuthStatus } from '@sagan/shared/auth-status';
import { noticeText } from '@sagan/shared/moderation';
import { pathTo } from '@sagan/shared/routes';
import { myNoticesTopic } from '../../lib/shell-readers.ts';
import { api } from '../../lib/api.ts';
import { useAuthWith } from '../../lib/auth.ts';
import { useLive } from '../../lib/realtime.ts';
import './owner-notices.css';

/**
 * What the operators did to the signed-in person's games (DESIGN §10: the owner is told in
 * plain words), on every page until they dismiss it; live, so a game hidden while they look is
 * said at once.
 */
export function OwnerNotices() {
  const uid = useAuthWith(({ authStatus, user }) =>
    authStatus === AuthStatus.SignedIn && user ? user.uid : null,
  );
  const notices = useLive(myNoticesTopic, uid);
  const [failed, setFailed] = useState<string | null>(null);
  if (!notices.data?.length) return null;
  return (
    <section className="owner-notices" aria-label="Notices from the moderators">
      <ul>
        {notices.data.map((n) => (
          <li key={n.id} className="banner owner-notice">
            <span>
              {noticeText(n)}{' '}
              {n.kind === 'hidden' && (
                <Link to={pathTo('scoreboard', { gameKey: n.gameKey })}>Open it</Link>
              )}
            </span>
            <button
              type="button"
              className="linklike"
              onClick={() => {
                setFailed(null);
                api('POST', `/me/notices/${encodeURIComponent(n.id)}/seen`).catch((err: Error) =>
                  setFailed(err.message),
                );
              }}
            >
              Dismiss
            </button>
          </li>
        ))}
      </ul>
      {failed && (
        <p className="form-error" role="alert">
          {failed}
        </p>
      )}
    </section>
  );
}
