import type { FastifyReply } from 'fastify';

/**
 * A link's QR code (PNG) as Sagan prints every one, for team sheets, scoreboards and
 * invitations alike (SPEC §9: error correction H, so a smudged or partly covered print still
 * reads; margin 3).
 */
export async function qrPng(url: string): Promise<Buffer> {
  // Loaded with the first code asked for, not at every start: most starts never draw one.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'H', margin: 3, width: 320 });
}

/**
 * Answers with the QR code of a public link, as the team sheets print it and the scorekeeper
 * shows a game's at the venue. It names a public page, so it may be cached for an hour; an image
 * of a link has no place in a search index.
 */
export async function sendQrPng(reply: FastifyReply, url: string): Promise<FastifyReply> {
  return reply
    .header('content-type', 'image/png')
    .header('cache-control', 'public, max-age=3600')
    .header('x-robots-tag', 'noindex')
    .send(await qrPng(url));
}
