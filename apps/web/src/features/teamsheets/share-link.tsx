import { useState } from 'react';
import { publicSheetPath } from '@sagan/shared/teamsheet-schemas';
import { useOrigin } from '../../lib/origin.ts';
import { qrSrc } from './api.ts';

/**
 * The public link near the top of the sheet, with a Copy link button and its QR code (SPEC §2 /
 * §9), so sharing never means scrolling past the whole roster. Without a key: the hint to
 * publish (DESIGN §8 wording). The QR may start folded where the roster matters more.
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
    return <p className="muted">Publish your team in the app to show a sharable QR Code here</p>;
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
