import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a raw image/* body (photo uploads); nothing else does. */
    imageBody?: boolean;
  }
}

const IMAGE_BODY = /^image\/[\w.+-]+$/;

function sendsImage(req: FastifyRequest): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && /^\s*image\//i.test(type);
}

/**
 * Lets the routes of this plugin scope that set `config.imageBody` take a raw image body of up
 * to maxBytes. Fastify gives a content-type parser to its whole scope, not to one route, so
 * every other route of the scope answers 415 to an image body, before reading any of it.
 */
export function acceptImageBodies(scope: FastifyInstance, maxBytes: number): void {
  scope.addHook('onRequest', async (req) => {
    if (!req.routeOptions.config.imageBody && sendsImage(req)) {
      throw new HttpError(415, 'This address does not take an image');
    }
  });
  scope.addContentTypeParser(
    IMAGE_BODY,
    { parseAs: 'buffer', bodyLimit: maxBytes },
    (_req, body, done) => done(null, body),
  );
}
