import { useState } from 'react';
import { publicSheetPath } from '@sagan/shared/roster-view';
import { API_PATH } from '@sagan/shared/http-paths';
import { useOrigin } from '../../lib/origin.ts';

// Not with the owner's calls in api.ts: the public sheet shows this link, and api.ts loads
// TanStack Query.
const qrSrc = (publishedAsKey: string) =>
  `${API_PATH}/rosters/${encodeURIComponent(publishedAsKey)}/qr.png`;

const PUBLISH_HINT = 'Publish this team sheet to get a shareable link and QR code here.';

/**
 * The public link near the top of the sheet, with a Copy link button and its QR code (SPEC §2 /
 * §9), so sharing never means scrolling past the whole roster. Without a key: the hint to
 * publish, pointing at the Publish button beside it. The QR may start folded where the roster
 * matters more.
 */
export function ShareLink({
  publishedAsKey,
  qrOpen = true,
}: {
  publishedAsKey: string;
  qrOpen?: boolean;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const origin = useOrigin();
  if (!publishedAsKey) {
    return <p className="muted">{PUBLISH_HINT}</p>;
  }
  const href = publicSheetPath(publishedAsKey);
  const url = `${origin}${href}`;
  const copy = () => {
    // The clipboard API exists only on https and localhost: elsewhere the link stays selectable.
    const done = navigator.clipboard?.writeText(url);
    if (!done) return setCopied('failed');
    done.then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <div className="share card">
      <div className="share-row">
        <a className="share-url" href={href}>
          {url}
        </a>
        <button type="button" className="btn" onClick={copy}>
          Copy link
        </button>
      </div>
      <p role="status" className={copied === 'failed' ? 'form-error' : 'form-ok'}>
        {copied === 'yes'
          ? 'Link copied'
          : copied === 'failed'
            ? 'Could not copy: select the link and copy it yourself.'
            : ''}
      </p>
      <details className="qr" open={qrOpen}>
        <summary>QR code</summary>
        <img src={qrSrc(publishedAsKey)} alt="Link to published sheet" width="200" height="200" />
      </details>
    </div>
  );
}
