import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ServerMessage } from '@sagan/shared/realtime';
import { databaseKinds, type TestDatabase, until, useTempDir } from './helpers.ts';
import { TestSocket } from './ws-client.ts';
import { startSaganServer, type Server } from '../../../scripts/lib/server.ts';

/**
 * Graceful shutdown on the real process (`node --import tsx apps/server/src/server.ts`), as an
 * orchestrator runs it: SIGTERM drains (stops accepting, tells viewers to reconnect and closes
 * their sockets, lets the request in flight finish, closes the database) and exits 0; a
 * malformed request never takes the process down.
 */
/** Sends raw bytes and resolves with whatever comes back before the server closes or 2 s pass. */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(bytes));
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('error', () => resolve(got));
    s.on('close', () => resolve(got));
    setTimeout(() => {
      s.destroy();
      resolve(got);
    }, 2000);
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

async function health(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/apps/sagan/api/health`);
  return res.status;
}

// Not useTestApp: the server under test is a real child process (server.ts) receiving
// signals; only its PostgreSQL database is made here.
describe.each(databaseKinds())('graceful life of the server process on $name', (kind) => {
  let database: TestDatabase | undefined;
  const dataDir = useTempDir('sagan-graceful-');
  let server: Server;

  beforeAll(async () => {
    const env: Record<string, string> = { DATA_DIR: dataDir() };
    if (kind.name === 'postgres') {
      database = await kind.open();
      env.DATABASE_URL = database.url!;
    }
    server = await startSaganServer(
      { PORT: '0', WEB_DIST: '/nonexistent', ...env },
      { isolated: true },
    );
  }, 60_000);
  afterAll(async () => {
    if (server.proc.exitCode === null) server.proc.kill('SIGKILL');
    await database?.cleanup();
  });

  it('survives malformed requests of every kind', async () => {
    const port = server.port;
    const api = `http://127.0.0.1:${port}/apps/sagan/api`;
    await raw(port, 'THIS IS NOT HTTP\r\n\r\n');
    await raw(port, Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x00, 0x00])); // a TLS hello
    await raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    const lying = await raw(
      port,
      'POST /apps/sagan/api/auth/local HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'X-Sagan-Request: 1\r\nContent-Length: 1000\r\n\r\n{"displayName":',
    );
    expect(lying).not.toMatch(/^HTTP\/1\.1 5/);
    const badJson = await fetch(`${api}/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
      body: '{"displayName": "Ann", ',
    });
    expect(badJson.status).toBe(400);
    const deep = await fetch(`${api}/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
      body: '['.repeat(100_000) + ']'.repeat(100_000),
    });
    expect(deep.status).toBeLessThan(500);
    const ws = await raw(
      port,
      'GET /apps/sagan/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: nonsense\r\n\r\n',
    );
    expect(ws).not.toMatch(/^HTTP\/1\.1 5/);
    expect(server.proc.exitCode).toBeNull();
    expect(await health(port)).toBe(200);
  });

  it('SIGTERM drains: viewers told to reconnect, the request in flight finishes, exit 0', async () => {
    const { port, proc: child } = server;
    const viewer = await TestSocket.open(`ws://127.0.0.1:${port}/apps/sagan/ws`);
    viewer.send({ type: 'subscribe', topic: 'tags' });
    await viewer.waitFor((m): m is ServerMessage => m.type === 'state' || m.type === 'error');

    // A sign-in whose body is still on its way when the signal arrives.
    const body = JSON.stringify({ displayName: 'Late arrival' });
    let finishBody: () => void = () => undefined;
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          // Like a browser: the connection is kept alive for minutes after the response.
          agent: new http.Agent({ keepAlive: true, timeout: 120_000 }),
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/apps/sagan/api/auth/local',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-sagan-request': '1',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // Finished once the test has seen the server stop accepting.
      finishBody = () => req.end(body.slice(10));
    });
    await new Promise((r) => setTimeout(r, 200)); // the server has the headers

    child.kill('SIGTERM');
    const bye = await viewer.waitFor(
      (m): m is Extract<ServerMessage, { type: 'reconnect' }> => m.type === 'reconnect',
    );
    expect(bye.afterMs).toBeGreaterThan(0);
    await viewer.waitClosed();
    expect(viewer.closed?.code).toBe(1012); // "service restart"

    await until(() => refused(port), 5000, 'connections refused after SIGTERM');
    expect(child.exitCode).toBeNull(); // still draining: the sign-in has not finished

    finishBody();
    const done = await inFlight;
    expect(done.status, done.body).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({ displayName: 'Late arrival' });

    const finishedAt = Date.now();
    expect(await server.exited, server.output()).toBe(0);
    // It lets go of the kept-alive connection instead of waiting for the client to.
    expect(Date.now() - finishedAt).toBeLessThan(3000);
    if (kind.name === 'pglite') {
      expect(fs.existsSync(path.join(dataDir(), 'sagan.lock'))).toBe(false);
    } else {
      // The database was closed: no connection of the server's is left behind.
      const admin = new pg.Client({ connectionString: database!.url });
      await admin.connect();
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      await admin.end();
      expect(rows[0]!.n).toBe(0);
    }
  }, 30_000);
});
