import type { ScoredKind } from '@sagan/shared/coscorers';
import { BASE_PATH, pathTo } from '@sagan/shared/routes';
import { CopyField } from '../copy-field.tsx';
import { ErrorMessage } from '../error-message.tsx';
import { Loading } from '../loading.tsx';
import { useCoscorers, useInvite, useRevoke } from './api.ts';
import './coscorers.css';

const day = (ms: number) =>
  new Date(ms).toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' });

/** The invitation link: the token rides in the fragment, which browsers never send to a server. */
function inviteLink(token: string): string {
  return `${location.origin}${BASE_PATH}${pathTo('invite')}#${token}`;
}

/**
 * The owner's co-scorers (DESIGN §10): invite one by link, see who joined, remove them. They
 * may score, edit the scoreboard and run the clock; never rename, delete, tag, share or invite.
 */
export function CoscorersPanel({ kind, gameKey }: { kind: ScoredKind; gameKey: string }) {
  const list = useCoscorers(kind, gameKey);
  const invite = useInvite(kind, gameKey);
  const revoke = useRevoke(kind, gameKey);
  const what = kind === 'game' ? 'game' : 'play count';
  return (
    <div className="co-panel">
      <p className="help">
        Co-scorers {kind === 'game' ? 'score this game' : 'count plays'} with you from their own
        phone or the Sagan apps. They cannot rename or delete the {what}, change its tags, read its
        messages or share it.
      </p>
      <div className="btn-row">
        <button
          type="button"
          className="btn primary"
          disabled={invite.isPending}
          onClick={() => invite.mutate()}
        >
          Invite a co-scorer
        </button>
      </div>
      <ErrorMessage error={invite.error} />
      {invite.data && (
        <CopyField
          label="Invitation link"
          value={inviteLink(invite.data.token)}
          copyLabel="Copy the link"
          rows={2}
        >
          <p className="help">
            Send it to one person. It works once, for 7 days; whoever opens it and signs in can
            score with you until you remove them.
          </p>
        </CopyField>
      )}
      {list.isPending && <Loading />}
      <ErrorMessage error={list.error} />
      {list.data && (
        <>
          <h3 className="co-head">Co-scorers</h3>
          {list.data.coscorers.length === 0 ? (
            <p className="muted">Nobody yet.</p>
          ) : (
            <ul className="co-list" aria-label="Co-scorers">
              {list.data.coscorers.map((c) => (
                <li key={c.id}>
                  <span>
                    <strong>{c.name ?? 'Someone'}</strong>{' '}
                    <span className="muted">since {day(c.since)}</span>
                  </span>
                  <button
                    type="button"
                    className="btn danger"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(c.id)}
                    aria-label={`Remove ${c.name ?? 'this co-scorer'}`}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          {list.data.invites.length > 0 && (
            <>
              <h3 className="co-head">Unused links</h3>
              <ul className="co-list" aria-label="Unused links">
                {list.data.invites.map((i) => (
                  <li key={i.id}>
                    <span className="muted">Valid until {day(i.expiresAt)}</span>
                    <button
                      type="button"
                      className="btn"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(i.id)}
                    >
                      Cancel link
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <ErrorMessage error={revoke.error} />
    </div>
  );
}
