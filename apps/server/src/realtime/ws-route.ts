import type { FastifyInstance } from 'fastify';
import { clientMessageSchema } from '@sagan/shared/realtime';

const HEARTBEAT_MS = 30_000;

export default async function wsRoute(app: FastifyInstance): Promise<void> {
  const { hub } = app;
  const alive = new WeakSet<object>();

  const heartbeat = setInterval(() => {
    for (const client of app.websocketServer.clients) {
      if (!alive.has(client)) {
        client.terminate();
        continue;
      }
      alive.delete(client);
      client.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  app.get(
    '/apps/sagan/ws',
    {
      websocket: true,
      schema: { hide: true },
      // Checked before the upgrade: a page on another site must not ride a viewer's cookie.
      preValidation: async (req, reply) => {
        const origin = req.headers.origin;
        if (origin && !app.isOwnOrigin(req, origin)) {
          return reply.code(403).send({ error: 'Cross-origin WebSocket refused' });
        }
      },
    },
    (socket, req) => {
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
      const conn = hub.connect(socket, req.user);
      socket.on('message', (raw, isBinary) => {
        alive.add(socket);
        if (isBinary) return hub.sendError(conn, 'Text frames only');
        let json: unknown;
        try {
          json = JSON.parse(raw.toString());
        } catch {
          return hub.sendError(conn, 'Messages must be JSON');
        }
        const parsed = clientMessageSchema.safeParse(json);
        if (!parsed.success) return hub.sendError(conn, 'Unknown message');
        hub.handle(conn, parsed.data).catch((err: unknown) => {
          req.log.error({ err }, 'realtime: message handling failed');
          hub.sendError(conn, 'Something went wrong');
        });
      });
    },
  );
}
