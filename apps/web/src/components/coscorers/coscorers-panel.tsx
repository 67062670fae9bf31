import { useState } from 'react';
import type { ScoredKind } from '@sagan/shared/coscorers';
import { CopyField } from '../copy-field.tsx';
import { ErrorMessage } from '../error-message.tsx';
import { Loading } from '../loading.tsx';
import { useCoscorers, useInvite, useRevoke } from './api.ts';
import { WriteButton } from '../write-button.tsx';
import './coscorers.css';

const day = (ms: number) =>
  new Date(ms).toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' });

/**
 * The owner's co-scorers (DESIGN §10): invite one by link, see who joined, remove them. They
 * may score, edit the scoreboard and run the clock; never rename, delete, tag, share or invite.
 */
export function CoscorersPanel({ kind, gameKey }: { kind: ScoredKind; gameKey: string }) {
  const list = useCoscorers(kind, gameKey);
  const invite = useInvite(kind, gameKey);
  const revoke = useRevoke(kind, gameKey);
  const what = kind === 'game' ? 'game' : 'play count';
  // The list is as of its last change: a link that had expired when the panel opened is not
  // offered, although no change has come since.
  const [openedAt] = useState(Date.now);
  const unused = list.data?.invites.filter((i) => i.expiresAt > openedAt) ?? [];
  return (
    <div className="co-panel">
      <p className="help">
        Co-scorers {kind === 'game' ? 'score this game' : 'count plays'} with you from their own
        phone or the Sagan apps. They cannot rename or delete the {what}, change its tags, read its
        messages or share it.
      </p>
      <div className="btn-row">
        <WriteButton write={invite} className="btn primary" onClick={() => invite.mutate()}>
          Invite a co-scorer
        </WriteButton>
      </div>
      <ErrorMessage error={invite.error} />
      {invite.data && (
        <CopyField
          label="Invitation link"
          value={invite.data.link}
          copyLabel="Copy the link"
          rows={2}
        >
          <figure className="co-qr">
            <img
              src={invite.data.qr}
              alt="QR code of the invitation link"
              width="200"
              height="200"
            />
            <figcaption className="help">Or let them scan it with their phone's camera.</figcaption>
          </figure>
          <p className="help">
            Send it to one person. It works once, for 7 days; whoever opens it and signs in can
            score with you until you remove them.
          </p>
        </CopyField>
      )}
      {list.loading && <Loading />}
      <ErrorMessage error={list.error} />
      {list.data === null && <p className="muted">This {what} no longer exists.</p>}
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
                  <WriteButton
                    write={revoke}
                    className="btn danger"
                    onClick={() => revoke.mutate(c.id)}
                    aria-label={`Remove ${c.name ?? 'this co-scorer'}`}
                  >
                    Remove
                  </WriteButton>
                </li>
              ))}
            </ul>
          )}
          {unused.length > 0 && (
            <>
              <h3 className="co-head">Unused links</h3>
              <ul className="co-list" aria-label="Unused links">
                {unused.map((i) => (
                  <li key={i.id}>
                    <span className="muted">Valid until {day(i.expiresAt)}</span>
                    <WriteButton write={revoke} className="btn" onClick={() => revoke.mutate(i.id)}>
                      Cancel link
                    </WriteButton>
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
