import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { API, databaseKinds, postLocalSignIn, newTeamWithPlayer, useTestApp } from './helpers.ts';

// Nobody's body is read for nothing: an anonymous write is refused on its headers alone, and
// the bodies anyone may send (signing in) are capped at what they need.

interface Answer {
  status: number;
  body: string;
}

/**
 * Sends a request's headers announcing a large body, and none of the body: a server that waits
 * for the body never answers (until its body timeout cuts it off with 408).
 */
function headersOnly(app: FastifyInstance, method: string, url: string, bytes: number) {
  const { port } = app.server.address() as AddressInfo;
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method,
      path: url,
      headers: {
        'content-type': 'application/json',
        'content-length': String(bytes),
        'x-sagan-request': '1',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe.each(databaseKinds())('anonymous writes on $name', (kind) => {
  const t = useTestApp(kind, { users: ['Body coach'], listen: true });

  it('an anonymous 11 MB write is refused with 401 before any of its body is sent', async () => {
    const { teamKey, playerKey } = await newTeamWithPlayer(t.users['Body coach']);
    for (const [method, url] of [
      ['PUT', `${API}/teams/${teamKey}/players/${playerKey}`],
      ['PUT', `${API}/teams/${teamKey}/players/${playerKey}/photo`],
      ['POST', `${API}/games`],
      ['POST', `${API}/auth/logout-all`],
    ] as const) {
      const answer = await headersOnly(t.app, method, url, 11 * 1024 * 1024);
      expect(answer.status, url).toBe(401);
      expect(JSON.parse(answer.body), url).toEqual({ error: 'Please sign in' });
    }
    // Nothing was written for the anonymous caller.
    const team = await t.users['Body coach'].request({ url: `${API}/teams/${teamKey}` });
    expect(team.statusCode).toBe(200);
    expect(team.body).toContain('Sam Park');
  });

  it('a signed-in caller still writes, and signing in and out stay open to anyone', async () => {
    const coach = t.users['Body coach'];
    const game = await coach.request({ method: 'POST', url: `${API}/games`, payload: {} });
    expect(game.statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout`,
      headers: { 'x-sagan-request': '1' },
    });
    expect(out.statusCode).toBe(200);
  });

  it('a sign-in body is capped at what a sign-in needs (16 KB), before it is parsed', async () => {
    const big = await postLocalSignIn(t.app, { displayName: 'x'.repeat(20 * 1024) });
    expect(big.statusCode).toBe(413);
    const google = await headersOnly(t.app, 'POST', `${API}/auth/google`, 1024 * 1024);
    expect(google.status).toBe(413);
  });
});
