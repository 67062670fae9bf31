import type { FastifyInstance } from 'fastify';

/** Loads the demo community on an empty database (filled in by the scoreboards feature). */
export async function seedDemo(app: FastifyInstance): Promise<void> {
  app.log.debug('demo seed: nothing to seed yet');
}
