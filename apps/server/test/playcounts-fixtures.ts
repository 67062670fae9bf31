import crypto from 'node:crypto';
import { API, type TestUser } from './helpers.ts';

export const newGameKey = () => `pc_${crypto.randomBytes(8).toString('base64url')}`;

/** A small game as Player Counter writes it: two players, three snaps. */
export function sampleGame(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gameName: 'Eagles at Hawks',
    gameDate: '2025-09-13',
    roster: [
      { key: 'p1', jersey: '7', playerName: 'Lee, Ann', playCount: 2, location: 1 },
      {
        key: 'p2',
        jersey: '23',
        playerName: 'Bo "Flash" Ray',
        playCount: 1,
        location: 2,
        imageURL: 'https://example.com/bo.jpg',
      },
    ],
    snaps: [
      { snapCount: 1, groupName: 'Offense', quarter: 1, p1: true },
      { snapCount: 2, groupName: 'Defense', quarter: 1, p1: true, p2: true },
      { snapCount: 3, groupName: 'Offense', quarter: 2 },
    ],
    ...overrides,
  };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request of a user's under the API path, with an Idempotency-Key when one is given. */
export const call = (user: TestUser, method: Method, url: string, payload?: object, key?: string) =>
  user.request({
    method,
    url: `${API}${url}`,
    ...(payload === undefined ? {} : { payload }),
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

/** The body of a successful answer; any other answer fails the test with its status and body. */
export const ok = async <T>(
  res: Promise<{ statusCode: number; body: string; json(): unknown }>,
) => {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${r.body}`);
  return r.json() as T;
};
