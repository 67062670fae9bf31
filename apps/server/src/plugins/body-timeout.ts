import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

interface Watch {
  /** The stream the body parser reads, once parsing has started. */
  payload: PassThrough | null;
  stop(): void;
}

const watches = new WeakMap<FastifyRequest, Watch>();

function hasBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (!!length && length !== '0');
}

/**
 * Whether the bytes that arrived in one window are enough to keep going. Measured per window
 * rather than over the whole request, so a fast start cannot buy a long stall.
 */
export function bodyKeepsPace(
  bytesInWindow: number,
  windowSeconds: number,
  minBytesPerSecond: number,
): boolean {
  return bytesInWindow >= minBytesPerSecond * windowSeconds;
}

/**
 * A request body that trickles (one byte every few seconds) would hold a connection, a parser
 * and its buffers for as long as the sender likes. Every window of BODY_TIMEOUT_SECONDS must
 * bring BODY_MIN_BYTES_PER_SECOND on average, or the request is answered 408 and its connection
 * closed: an 8 MB photo on a 50 KB/s sideline link brings 1 MB per 20 s window, far above
 * the 10 kB asked for by the defaults.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const { windowSeconds, minBytesPerSecond } = config.bodyTimeout;
    if (minBytesPerSecond === 0) return;

    function closeAfterResponse(req: FastifyRequest, reply: FastifyReply): void {
      const socket = req.raw.socket;
      reply.raw.once('finish', () => {
        // The sender may still be writing: half-close so the 408 gets through, then let go.
        socket.end();
        setTimeout(() => socket.destroy(), 1000).unref();
      });
    }

    function cut(req: FastifyRequest, reply: FastifyReply, watch: Watch): void {
      req.log.info(
        { windowSeconds, minBytesPerSecond },
        'request body too slow: answered 408 and closed',
      );
      const message = `The request body arrived too slowly (under ${minBytesPerSecond} bytes per second for ${windowSeconds} s)`;
      if (reply.sent || reply.raw.headersSent) {
        req.raw.socket.destroy();
        return;
      }
      reply.header('connection', 'close');
      closeAfterResponse(req, reply);
      if (watch.payload) {
        // The parser is reading: failing its stream answers 408 the usual way.
        watch.payload.destroy(Object.assign(new Error(message), { statusCode: 408 }));
      } else {
        void reply.code(408).send({ error: message });
      }
    }

    app.addHook('onRequest', (req, reply, done) => {
      const raw = req.raw;
      const socket = raw.socket as (typeof raw.socket & { bytesRead?: number }) | null;
      // Injected test requests have no real socket to measure.
      if (!hasBody(raw) || raw.complete || typeof socket?.bytesRead !== 'number') return done();
      let seen = socket.bytesRead;
      const timer = setInterval(() => {
        if (raw.complete) return watch.stop();
        const now = socket.bytesRead ?? seen;
        const arrived = now - seen;
        seen = now;
        if (bodyKeepsPace(arrived, windowSeconds, minBytesPerSecond)) return;
        watch.stop();
        cut(req, reply, watch);
      }, windowSeconds * 1000);
      timer.unref();
      const watch: Watch = {
        payload: null,
        stop: () => clearInterval(timer),
      };
      watches.set(req, watch);
      raw.once('end', watch.stop);
      raw.once('close', watch.stop);
      done();
    });

    app.addHook('preParsing', async (req, _reply, payload) => {
      const watch = watches.get(req);
      if (!watch || payload !== req.raw) return payload;
      const pass = new PassThrough();
      req.raw.pipe(pass);
      watch.payload = pass;
      return pass;
    });
  },
  { name: 'body-timeout' },
);
