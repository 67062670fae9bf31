import { describe, expect, it } from 'vitest';
import type { Invite } from '@sagan/shared/coscorers';
import { databaseKinds, useTestApp } from './helpers.ts';
import { call, newGameKey, ok, sampleGame } from './playcounts-fixtures.ts';
import { tableVersions } from './security-world.ts';

// DESIGN §10: Player Counter counts by sending the whole count (PUT), stored as its difference
// from the current state. A co-counter counts from the phone app too, through the same guard
// as snaps; the name, the date, the minimum and archiving stay the owner's.

describe.each(databaseKinds())("a co-counter's whole-count PUT on $name", (kind) => {
  const t = useTestApp(kind, { users: ['Owner', 'Counter', 'Stranger'] });

  async function sharedCount(): Promise<string> {
    const gameKey = newGameKey();
    await ok(call(t.users.Owner, 'PUT', `/playcounts/${gameKey}`, sampleGame()));
    const invite = await ok<Invite>(
      call(t.users.Owner, 'POST', `/playcounts/${gameKey}/coscorers`),
    );
    await ok(call(t.users.Counter, 'POST', '/coscorers/redeem', { token: invite.token }));
    return gameKey;
  }
  const withOneMoreSnap = (overrides: Record<string, unknown> = {}) => {
    const game = sampleGame() as { roster: Array<Record<string, unknown>>; snaps: unknown[] };
    return {
      ...game,
      roster: game.roster.map((p) => (p.key === 'p1' ? { ...p, playCount: 3 } : p)),
      snaps: [...game.snaps, { snapCount: 4, groupName: 'Offense', quarter: 2, p1: true }],
      ...overrides,
    };
  };

  it('counts: the snap lands in the owner’s count, recorded as the co-counter’s', async () => {
    const gameKey = await sharedCount();
    const res = await call(t.users.Counter, 'PUT', `/playcounts/${gameKey}`, withOneMoreSnap());
    expect(res.statusCode, res.body).toBe(200);
    const seen = await ok<{ snaps: unknown[]; roster: Array<{ key: string; playCount: number }> }>(
      call(t.users.Owner, 'GET', `/playcounts/${gameKey}`),
    );
    expect(seen.snaps).toHaveLength(4);
    expect(seen.roster.find((p) => p.key === 'p1')?.playCount).toBe(3);
    const events = await t.db.query<{ uid: string; kind: string }>(
      `SELECT uid, body->>'kind' AS kind FROM playcount_events WHERE game_key = $1 ORDER BY id`,
      [gameKey],
    );
    expect(events.at(-1)).toEqual({ uid: t.users.Counter.uid, kind: 'snap' });
    // Still the owner's count, listed as the owner's and not the co-counter's.
    const owners = await t.db.query<{ uid: string }>(
      'SELECT uid FROM play_count_games WHERE game_key = $1',
      [gameKey],
    );
    expect(owners).toEqual([{ uid: t.users.Owner.uid }]);
  });

  it('refuses what is not counting, and anyone who does not count it, changing nothing', async () => {
    const gameKey = await sharedCount();
    const refused: Array<[string, object, string]> = [
      ['rename', withOneMoreSnap({ gameName: 'Mine now' }), 'Counter'],
      ['new date', withOneMoreSnap({ gameDate: '2030-01-01' }), 'Counter'],
      ['archive', withOneMoreSnap({ archived: true }), 'Counter'],
      ['minimum', withOneMoreSnap({ minPlays: 9 }), 'Counter'],
      ['a stranger', withOneMoreSnap(), 'Stranger'],
    ];
    for (const [what, body, who] of refused) {
      const before = await tableVersions(t.db);
      const res = await call(
        t.users[who as 'Counter' | 'Stranger'],
        'PUT',
        `/playcounts/${gameKey}`,
        body,
      );
      expect(res.statusCode, what).toBe(403);
      expect(await tableVersions(t.db), `${what} changed rows`).toBe(before);
    }
    // Once removed, the co-counter is anyone else.
    const list = await ok<{ coscorers: Array<{ id: string }> }>(
      call(t.users.Owner, 'GET', `/playcounts/${gameKey}/coscorers`),
    );
    await ok(
      call(t.users.Owner, 'DELETE', `/playcounts/${gameKey}/coscorers/${list.coscorers[0]!.id}`),
    );
    const after = await call(t.users.Counter, 'PUT', `/playcounts/${gameKey}`, withOneMoreSnap());
    expect(after.statusCode).toBe(403);
  });
});
