// The scorekeepers' side of the write benchmarks (saturday, write-cpu): plain HTTP calls on a
// keep-alive agent (cheaper for the load generator than fetch), and a scorekeeper with a game,
// signed in as a phone app (a Google ID token with every request) or as the web app (a session).
import http from 'node:http';
import { API_PATH } from '@sagan/shared/http';
import type { GoogleStandIn } from './procs.ts';

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A server: its URL (nginx's, say), or a port on this machine. */
type Base = URL | number;

export type ApiCall = (
  base: Base,
  method: string,
  p: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<Answer>;

/** One API call through agent. */
export function apiCaller(agent: http.Agent): ApiCall {
  return (base, method, p, headers, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          agent,
          host: typeof base === 'number' ? '127.0.0.1' : base.hostname,
          port: typeof base === 'number' ? base : base.port,
          method,
          path: `${API_PATH}${p}`,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/** Scorekeeper i, signed in as the web app (web) or a phone app, and the game they created. */
export async function scorekeeperWithGame(
  call: ApiCall,
  base: Base,
  google: GoogleStandIn,
  i: number,
  web: boolean,
  gameName: string,
): Promise<{ gameKey: string; headers: Record<string, string> }> {
  let headers: Record<string, string>;
  if (!web) {
    headers = { authorization: `Bearer ${await google.idToken(`keeper-${i}`, `Keeper ${i}`)}` };
  } else {
    const r = await call(
      base,
      'POST',
      '/auth/local',
      { 'x-sagan-request': '1' },
      { displayName: `Keeper ${i}` },
    );
    if (r.status !== 200) throw new Error(`sign-in: ${r.status} ${r.body}`);
    const cookie = String(r.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
    headers = { cookie, 'x-sagan-request': '1' };
  }
  const r = await call(base, 'POST', '/games', headers, {
    gameName,
    sportID: 2,
    homeTeamName: `Home ${i}`,
    awayTeamName: `Away ${i}`,
    homeScore: 0,
  });
  if (r.status !== 200) throw new Error(`create game: ${r.status} ${r.body}`);
  const { gameKey } = JSON.parse(r.body) as { gameKey: string };
  return { gameKey, headers };
}
