import type { FastifyInstance } from 'fastify';

/** Keeps a few demo games live; returns a stop function (filled in by the scoreboards feature). */
export function startSimulator(app: FastifyInstance): () => void {
  app.log.debug('simulator: no games to simulate yet');
  return () => undefined;
}
