import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { bodyKeepsPace } from '../src/plugins/body-timeout.ts';
import { API, databaseKinds, signInLocal, useTestApp } from './helpers.ts';

/**
 * Request hooks attacked from outside: a body that trickles is cut with 408 (while a slow but
 * real upload still arrives), and private JSON is never cached.
 */
describe('body pace rule at the shipped defaults (20 s windows, 500 B/s)', () => {
  it('lets an 8 MB photo on a 50 KB/s link through and cuts one byte every 10 s', () => {
    const window = 20;
    const min = 500;
    // 8 MB at 50 KB/s: 160 s, every 20 s window brings 1 MB.
    const photo = 8 * 1024 * 1024;
    const perWindow = 50 * 1024 * window;
    expect(Math.ceil(photo / perWindow)).toBe(9);
    expect(bodyKeepsPace(perWindow, window, min)).toBe(true);
    // Even a 2G-grade 1 KB/s link keeps pace.
    expect(bodyKeepsPace(1024 * window, window, min)).toBe(true);
    // One byte every 10 s: two bytes in the first window, cut at 20 s.
    expect(bodyKeepsPace(2, window, min)).toBe(false);
  });
});

describe.each(databaseKinds())('request hooks on $name', (kind) => {
  let port: number;
  const WINDOW_S = 1;
  const MIN_RATE = 200;

  const t = useTestApp(kind, {
    config: { bodyTimeout: { windowSeconds: WINDOW_S, minBytesPerSecond: MIN_RATE } },
    listen: true,
  });
  beforeAll(() => {
    port = (t.app.server.address() as AddressInfo).port;
  });

  interface Outcome {
    status: number | null;
    /** Seconds from the first byte sent to the answer (or the close). */
    seconds: number;
    closed: boolean;
  }

  /**
   * Sends the request head, then the body in `chunks` spaced `gapMs` apart, over a raw socket;
   * resolves with the status line once the socket closes or `giveUpMs` passes.
   */
  function send(opts: {
    headers?: Record<string, string>;
    body: string;
    chunks: string[];
    gapMs: number;
    giveUpMs: number;
    /** Ask the server to close after answering (else only a cut closes the connection). */
    close?: boolean;
  }): Promise<Outcome> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      let timer: NodeJS.Timeout | undefined;
      const finish = (closed: boolean) => {
        clearTimeout(timer);
        clearTimeout(giveUp);
        socket.destroy();
        const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
        resolve({
          status: m ? Number(m[1]) : null,
          seconds: (Date.now() - started) / 1000,
          closed,
        });
      };
      const giveUp = setTimeout(() => finish(false), opts.giveUpMs);
      socket.on('data', (d) => {
        out += d.toString();
      });
      socket.on('close', () => finish(true));
      socket.on('error', () => undefined);
      socket.on('connect', () => {
        const head = [
          `POST ${API}/auth/local HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(opts.body)}`,
          ...(opts.close ? ['Connection: close'] : []),
          ...Object.entries(opts.headers ?? { 'X-Sagan-Request': '1' }).map(
            ([k, v]) => `${k}: ${v}`,
          ),
          '',
          '',
        ].join('\r\n');
        socket.write(head);
        const queue = [...opts.chunks];
        const next = () => {
          const chunk = queue.shift();
          if (chunk === undefined || socket.destroyed) return;
          socket.write(chunk);
          timer = setTimeout(next, opts.gapMs);
        };
        next();
      });
    });
  }

  /** A valid sign-in body padded with JSON whitespace to `size` bytes. */
  const paddedBody = (name: string, size: number) => {
    const json = JSON.stringify({ displayName: name });
    return `${json.slice(0, -1)}${' '.repeat(size - json.length)}}`;
  };

  it('a trickling body (one byte at a time) is answered 408 and its connection closed', async () => {
    const body = paddedBody('Trickler', 60);
    const outcome = await send({ body, chunks: [...body], gapMs: 400, giveUpMs: 8000 });
    console.log(
      `stalled body (1 byte / 0.4 s, windows of ${WINDOW_S} s at ${MIN_RATE} B/s): ` +
        `${outcome.status} after ${outcome.seconds.toFixed(1)} s`,
    );
    expect(outcome.status).toBe(408);
    expect(outcome.closed).toBe(true);
    expect(outcome.seconds).toBeLessThan(2 * WINDOW_S + 1.5);
    const users = await t.db.query('SELECT 1 FROM users WHERE display_name = $1', ['Trickler']);
    expect(users).toHaveLength(0);
  });

  it('a fast start does not buy a long stall', async () => {
    // Within the sign-in route's body limit (16 KB).
    const body = paddedBody('Fast then stalled', 15_000);
    const outcome = await send({
      body,
      chunks: [body.slice(0, 7_500)],
      gapMs: 0,
      giveUpMs: 8000,
    });
    expect(outcome.status).toBe(408);
    expect(outcome.seconds).toBeLessThan(2 * WINDOW_S + 1.5);
  });

  it('a slow but steady body still arrives', async () => {
    // 1,500 bytes at ~600 B/s: three times the minimum, over more than two windows.
    const body = paddedBody('Slow link', 1500);
    const chunks: string[] = [];
    for (let i = 0; i < body.length; i += 60) chunks.push(body.slice(i, i + 60));
    const outcome = await send({ body, chunks, gapMs: 100, giveUpMs: 8000, close: true });
    expect(outcome.seconds).toBeGreaterThan(2 * WINDOW_S);
    expect(outcome.seconds).toBeLessThan(6);
    expect(outcome.status).toBe(200);
  });

  it('a refused request whose body keeps trickling does not hold its connection', async () => {
    const body = paddedBody('Refused trickler', 60);
    // No X-Sagan-Request: refused at once, before the body is read.
    const outcome = await send({
      headers: {},
      body,
      chunks: [...body],
      gapMs: 400,
      giveUpMs: 8000,
    });
    expect(outcome.status).toBe(403);
    expect(outcome.closed).toBe(true);
    expect(outcome.seconds).toBeLessThan(2 * WINDOW_S + 1.5);
  });

  it('private JSON is no-store; a route that chose its own caching keeps it', async () => {
    const user = await signInLocal(t.app, 'Cache probe');
    for (const url of [`${API}/auth/me`, `${API}/teams`, `${API}/playcounts`, `${API}/me/games`]) {
      const res = await user.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await t.app.inject({ method: 'GET', url: `${API}/auth/me` });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');

    const team = await user.request({ method: 'POST', url: `${API}/teams` });
    expect(team.headers['cache-control']).toBe('no-store');
    const { teamKey } = team.json<{ teamKey: string }>();
    const pub = await user.request({ method: 'POST', url: `${API}/teams/${teamKey}/publish` });
    const { publishedAsKey } = pub.json<{ publishedAsKey: string }>();
    const qr = await t.app.inject({
      method: 'GET',
      url: `${API}/rosters/${publishedAsKey}/qr.png`,
    });
    expect(qr.headers['cache-control']).toBe('public, max-age=3600');
  });
});
