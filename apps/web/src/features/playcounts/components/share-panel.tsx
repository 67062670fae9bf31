import { useState } from 'react';
import { BASE_PATH, pathTo } from '@sagan/shared/routes';
import type { PlayCountGame } from '@sagan/shared/playcount';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { useShare } from '../api.ts';
import { WriteButton } from '../../../components/write-button.tsx';

/**
 * DESIGN §9: a read-only live link for parents. Anyone with it sees the counts (names and
 * photos as the team sheet's privacy option allows); stopping it closes open views at once.
 */
export function SharePanel({ game }: { game: PlayCountGame }) {
  const share = useShare(game.gameKey);
  const [copied, setCopied] = useState(false);
  const url = game.shareKey
    ? `${location.origin}${BASE_PATH}${pathTo('playcountshared', { shareKey: game.shareKey })}`
    : null;

  return (
    <section className="card pc-share" aria-labelledby="pc-share-title">
      <h2 id="pc-share-title">Share with parents</h2>
      {url ? (
        <>
          <p className="help">
            Anyone with this link sees the counts live, read-only. Names and photos follow the team
            sheet’s privacy settings.
          </p>
          <input
            className="pc-share-url"
            readOnly
            value={url}
            aria-label="Shared link"
            onFocus={(e) => e.target.select()}
          />
          <div className="btn-row">
            <button
              type="button"
              className="btn"
              onClick={() =>
                navigator.clipboard?.writeText(url).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy link'}
            </button>
            <WriteButton write={share} className="btn danger" onClick={() => share.mutate(false)}>
              Stop sharing
            </WriteButton>
          </div>
        </>
      ) : (
        <>
          <p className="help">
            Not shared. A link lets parents follow the counts live without signing in.
          </p>
          <WriteButton write={share} className="btn" onClick={() => share.mutate(true)}>
            Share a live link
          </WriteButton>
        </>
      )}
      <ErrorMessage error={share.error} />
    </section>
  );
}
