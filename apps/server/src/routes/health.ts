import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const listenSchema = z.object({ state: z.enum(['up', 'down']), reconnects: z.number() });
const healthSchema = z.object({
  ok: z.boolean(),
  database: z.enum(['pglite', 'postgres', 'unreachable']),
  listen: listenSchema,
  connections: z.number().optional(),
});

/**
 * For load balancers and people: 200 when this node can serve, 503 when its database is
 * unreachable or its LISTEN connection (live updates from other nodes) is being re-established.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        tags: ['ops'],
        summary:
          'Health of this node: 200 when it can serve, 503 when its database or live updates are down',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_req, reply) => {
      const listen = app.db.listenHealth();
      try {
        await app.db.query('SELECT 1');
      } catch (err) {
        app.log.error({ err }, 'health: database unreachable');
        return reply.code(503).send({ ok: false, database: 'unreachable', listen });
      }
      const ok = listen.state === 'up';
      return reply.code(ok ? 200 : 503).send({
        ok,
        database: app.db.kind,
        listen,
        connections: app.hub.connectionCount,
      });
    },
  );
}
