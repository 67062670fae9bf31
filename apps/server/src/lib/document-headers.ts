import type { FastifyReply } from 'fastify';

/**
 * Helmet's headers that only mean something on a document (a page, or an SVG opened on its
 * own): what it may load and run, who may frame or open it, how it is isolated, and the old
 * browsers' variants. A script, stylesheet, JSON answer or photo is never a document (nosniff,
 * which every response keeps, stops a browser from treating it as one), and these cost about
 * 900 bytes on each of the ~20 files of a first page load. Strict-Transport-Security is learned
 * from the document that comes first on any visit.
 */
const DOCUMENT_ONLY = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

const DOCUMENT_TYPE = /^(?:text\/html|image\/svg\+xml)\b/;

/** Drops the document-only headers from a response that is not a document. */
export function trimNonDocumentHeaders(reply: FastifyReply): void {
  if (DOCUMENT_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return;
  for (const name of DOCUMENT_ONLY) reply.removeHeader(name);
}
