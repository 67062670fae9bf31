import type { FastifyReply } from 'fastify';

/**
 * Lets other sites frame this one response: the mini card, decided by the handler that matched
 * its exact route, never by a URL prefix (a prefix let `/viewscoreboardmini/x/y`, the whole app
 * with its menus, be framed). Everything else keeps helmet's `frame-ancestors 'none'` and
 * X-Frame-Options.
 */
export function allowFraming(reply: FastifyReply): void {
  reply.removeHeader('x-frame-options');
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') {
    reply.header(
      'content-security-policy',
      csp.replace("frame-ancestors 'none'", 'frame-ancestors *'),
    );
  }
}
