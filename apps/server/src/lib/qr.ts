import QRCode from 'qrcode';

/**
 * A link's QR code (PNG) as Sagan prints every one, for team sheets, scoreboards and
 * invitations alike (SPEC §9: error correction H, so a smudged or partly covered print still
 * reads; margin 3).
 */
export function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'H', margin: 3, width: 320 });
}
