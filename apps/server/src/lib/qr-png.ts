import type { FastifyReply } from 'fastify';
import QRCode from 'qrcode';

/**
 * Answers with the QR code of a public link as a PNG, as SPEC §9 has the team sheets print it
 * (error correction H, margin 3) and the scorekeeper shows a game's at the venue. It names a
 * public page, so it may be cached for an hour; an image of a link has no place in a search
 * index.
 */
export async function sendQrPng(reply: FastifyReply, url: string): Promise<FastifyReply> {
  const png = await QRCode.toBuffer(url, {
    type: 'png',
    errorCorrectionLevel: 'H',
    margin: 3,
    width: 320,
  });
  return reply
    .header('content-type', 'image/png')
    .header('cache-control', 'public, max-age=3600')
    .header('x-robots-tag', 'noindex')
    .send(png);
}
