import { publicSheetPath } from '@sagan/shared/teamsheet-schemas';
import { qrSrc } from './api.ts';

/** SPEC §2 / §9: the QR code of the public link, or the hint to publish (DESIGN §8 wording). */
export function QrCode({ publishedAsKey }: { publishedAsKey: string }) {
  if (!publishedAsKey) {
    return <p className="muted">Publish your team in the app to show a sharable QR Code here</p>;
  }
  const href = publicSheetPath(publishedAsKey);
  return (
    <figure className="qr">
      <img src={qrSrc(publishedAsKey)} alt="Link to published sheet" width="200" height="200" />
      <figcaption>
        <a href={href}>{`${location.origin}${href}`}</a>
      </figcaption>
    </figure>
  );
}
