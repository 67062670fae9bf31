import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', { schema: { tags: ['ops'] } }, async (_req, reply) => {
    try {
      await app.db.query('SELECT 1');
      return { ok: true, database: app.db.kind, connections: app.hub.connectionCount };
    } catch (err) {
      app.log.error({ err }, 'health: database unreachable');
      return reply.code(503).send({ ok: false, database: 'unreachable' });
    }
  });
}
