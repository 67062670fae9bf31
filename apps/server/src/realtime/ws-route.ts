import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { WS_PATH } from '@sagan/shared/http';
import { clientMessageSchema } from '@sagan/shared/realtime';
import { refuseAndClose } from '../lib/http-errors.ts';
import {
  AddressCounts,
  CLOSE_TOO_MANY_MESSAGES,
  CLOSE_TOO_MANY_SOCKETS,
  socketLimits,
  TokenBucket,
  TOPIC_LIMIT,
  TopicQuota,
} from './limits.ts';
import { sessionIdOf } from '../auth/sessions.ts';
import { eachInSlices } from './slices.ts';

const HEARTBEAT_MS = 30_000;
/**
 * A heartbeat's pings are written in slices of at most this long, one per turn of the event
 * loop. Pinging 4,000 viewers at once held the loop for 180-310 ms every 30 s (on a loaded
 * 2-core box), every write and timer waiting it out.
 */
const PING_SLICE_MS = 2;

/**
 * One heartbeat: ends each client that has not answered the last ping and pings the others,
 * in slices of PING_SLICE_MS. Returns what stops the slices still to come; onDone runs after
 * the last.
 */
export function heartbeat(
  clients: Set<WebSocket>,
  alive: WeakSet<object>,
  onDone?: () => void,
): () => void {
  return eachInSlices(
    [...clients],
    (client) => {
      // Closed since the heartbeat began.
      if (!clients.has(client)) return;
      if (!alive.has(client)) client.terminate();
      else {
        alive.delete(client);
        client.ping();
      }
    },
    PING_SLICE_MS,
    onDone,
  );
}

export default async function wsRoute(app: FastifyInstance): Promise<void> {
  const { hub } = app;
  const alive = new WeakSet<object>();
  const limits = socketLimits(app.config.rateLimitFactor);
  const socketsByAddress = new AddressCounts(limits.socketsPerAddress);

  let stopBeat = () => {};
  const beat = setInterval(() => {
    stopBeat = heartbeat(app.websocketServer.clients, alive);
  }, HEARTBEAT_MS);
  beat.unref();
  app.addHook('onClose', async () => {
    clearInterval(beat);
    stopBeat();
  });

  app.get(
    WS_PATH,
    {
      websocket: true,
      schema: { hide: true },
      // Checked before the upgrade: a page on another site must not ride a viewer's cookie.
      preValidation: async (req, reply) => {
        const origin = req.headers.origin;
        if (origin && !app.isOwnOrigin(req, origin)) {
          return refuseAndClose(req, reply, 403, 'Cross-origin WebSocket refused');
        }
      },
    },
    (socket, req) => {
      // Counted once open (the upgrade has no cheaper point to refuse at that still tells the
      // client why); the address is the one resolved through the trusted proxies.
      const address = req.ip;
      if (!socketsByAddress.open(address)) {
        socket.close(CLOSE_TOO_MANY_SOCKETS, 'Too many connections from this address');
        return;
      }
      socket.once('close', () => socketsByAddress.close(address));
      const bucket = new TokenBucket(limits.messagesPerSecond, limits.messageBurst);
      const quota = new TopicQuota(limits.topicsPerSocket);
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
      // The closures below outlive the upgrade request by hours: they must not hold it (and
      // its socket, headers and parser) for every idle viewer, only what they use.
      const session = req.user && req.sessionToken ? sessionIdOf(req.sessionToken) : null;
      const conn = hub.connect(socket, req.user, session, req.bearerExpiresAt);
      const bytes = new TokenBucket(limits.bytesPerSecond, limits.byteBurst);
      conn.spend = (n) => bytes.take(n);
      const log = app.log;
      // @fastify/websocket's own 'error' listener closes over the upgrade's request and reply
      // (≈ 4 KB of heap per viewer for the socket's lifetime); ours does what its default
      // handler does (log, terminate) without them.
      socket.removeAllListeners('error');
      // It also assigns the TCP socket a ServerResponse for routing the upgrade and never
      // detaches it, so the socket would keep the response, the request and their hooks alive.
      const tcp = req.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
      tcp._httpMessage?.detachSocket(tcp);
      socket.on('error', (err) => {
        log.warn({ err }, 'realtime: socket error');
        socket.terminate();
      });
      socket.on('message', (raw, isBinary) => {
        if (!bucket.take() || !bytes.take(rawLength(raw))) {
          if (socket.readyState === socket.OPEN) {
            socket.close(CLOSE_TOO_MANY_MESSAGES, 'Too many messages');
          }
          return;
        }
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
        const msg = parsed.data;
        if (msg.type === 'subscribe' && !quota.admit(msg.topic)) {
          return hub.sendError(conn, 'Too many topics on one connection', msg.topic, TOPIC_LIMIT);
        }
        if (msg.type === 'unsubscribe') quota.release(msg.topic);
        hub.handle(conn, msg).catch((err: unknown) => {
          log.error({ err }, 'realtime: message handling failed');
          hub.sendError(conn, 'Something went wrong');
        });
      });
    },
  );
}

function rawLength(raw: RawData): number {
  if (Array.isArray(raw)) return raw.reduce((n, b) => n + b.length, 0);
  return raw.byteLength;
}
