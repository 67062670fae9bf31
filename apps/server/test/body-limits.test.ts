import { describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES } from '../src/routes/photos/public.ts';
import {
  BULK_BODY_BYTES,
  PLAY_COUNT_BODY_BYTES,
  SMALL_BODY_BYTES,
  SNAP_BODY_BYTES,
} from '../src/lib/body-limits.ts';
import { localUid } from '../src/auth/local-uid.ts';
import { API, databaseKinds, newTeamWithPlayer, useTestApp } from './helpers.ts';
import { routeTable, tableVersions } from './security-world.ts';

/**
 * Every route reads at most the body it takes: JSON routes a small one, the photo routes a
 * photo, the few that take lists what their lists need. A body one byte over its route's cap
 * is refused with a clear 413 and nothing is written; a body at the cap is read (and then
 * judged on what it says).
 */
const PHOTO_BODY_BYTES = Math.ceil(MAX_PHOTO_BYTES * 1.4);
const LARGER: Record<string, number> = {
  [`PUT ${API}/teams/:teamKey/players/:playerKey`]: PHOTO_BODY_BYTES,
  // As JSON (a data URL); a raw image over MAX_PHOTO_BYTES is refused as too large a picture.
  [`PUT ${API}/teams/:teamKey/players/:playerKey/photo`]: PHOTO_BODY_BYTES,
  [`POST ${API}/teams/:teamKey/players/bulk`]: BULK_BODY_BYTES,
  [`POST ${API}/playcounts/:gameKey/snaps`]: SNAP_BODY_BYTES,
  [`PUT ${API}/playcounts/:gameKey`]: PLAY_COUNT_BODY_BYTES,
  // The backup command sends no body.
  [`POST ${API}/ops/backup`]: 1024,
};
const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A JSON object of exactly `bytes` bytes. */
function jsonOf(bytes: number): string {
  const frame = '{"pad":""}';
  return `{"pad":"${'x'.repeat(bytes - frame.length)}"}`;
}

describe.each(databaseKinds())('body limits on $name', (kind) => {
  // High enough that the many requests below meet no write limit.
  // The owner is an operator too: the operators' routes answer 404 to anyone else before they
  // read a body, so only an operator meets their cap.
  const t = useTestApp(kind, {
    users: ['Owner'],
    config: { rateLimitFactor: 100, adminUids: [localUid('Owner')] },
  });

  it('refuses a body one byte over its route’s cap with 413, writing nothing, on every route', async () => {
    const owner = t.users.Owner;
    const { teamKey, playerKey } = await newTeamWithPlayer(owner);
    const game = await owner.request({ method: 'POST', url: `${API}/games`, payload: {} });
    const { gameKey } = game.json<{ gameKey: string }>();
    const params: Record<string, string> = { teamKey, playerKey, gameKey };
    const writes = routeTable(t.app).filter((r) => WRITE.has(r.split(' ')[0]!));
    expect(writes.length).toBeGreaterThan(30);
    for (const larger of Object.keys(LARGER)) expect(writes).toContain(larger);

    let refused = 0;
    for (const route of writes) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? 'nosuchkey');
      const bytes = LARGER[route] ?? SMALL_BODY_BYTES;
      const send = (n: number) =>
        owner.request({
          method: method as 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: jsonOf(n),
        });

      const before = await tableVersions(t.db);
      const over = await send(bytes + 1);
      expect(over.statusCode, route).toBe(413);
      expect(over.json(), route).toEqual({
        error: `Too large: this request takes at most ${Math.floor(bytes / 1024)} KB`,
      });
      expect(await tableVersions(t.db), route).toBe(before);
      refused++;

      // At the cap the body is read: whatever the route then answers, it is not 413. Asked
      // of the larger caps and of one harmless route for the default (other routes would
      // act on a body they accept: sign out, delete the sheet).
      if (route in LARGER || route === `POST ${API}/games`) {
        const at = await send(bytes);
        expect(at.statusCode, `${route} at its cap`).not.toBe(413);
      }
    }
    expect(refused).toBe(writes.length);
    // Every write route, with the tables' versions read before and after each: seconds, more
    // on a loaded machine with the rest of the suite beside it.
  }, 90_000);
});
