import type { FastifyReply, FastifyRequest } from 'fastify';

/** An error whose message is safe to show the user; anything else becomes a generic 500. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    /** More of the answer's body, beside `error` (e.g. the current state on a 409). */
    public readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);
export const forbidden = () => new HttpError(403, 'You do not have access to this');
export const unauthorized = () => new HttpError(401, 'Please sign in');
export const badRequest = (message: string) => new HttpError(400, message);

/**
 * A refusal from a hook that also closes the connection: the request's body is not wanted, and
 * the socket of a WebSocket upgrade has left the HTTP server's care, so nothing else would ever
 * close it (such a socket held a graceful shutdown until its forced exit).
 */
export function refuseAndClose(
  req: FastifyRequest,
  reply: FastifyReply,
  code: number,
  error: string,
): FastifyReply {
  reply.header('connection', 'close');
  if (req.headers.upgrade) reply.raw.once('finish', () => req.raw.socket.destroy());
  return reply.code(code).send({ error });
}
