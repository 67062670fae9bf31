import { describe, expect, it } from 'vitest';
import { playCountGameSchema } from '@sagan/shared/playcount';
import { sharedPlayCountSchema } from '@sagan/shared/playcount-sideline';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { anonymous, API, databaseKinds, signInLocal, useTestApp } from './helpers.ts';
import { sampleGame } from './playcounts-fixtures.ts';

// A play count stored whole (snaps inside its document) before the log: it becomes its snaps
// as events plus a baseline of its stored counts, and keeps its sheet's privacy.
describe.each(databaseKinds())('play counts stored before the log, migrated on $name', (kind) => {
  // The phone's counts (Ann 5, Bo 1) need not equal what its snaps add up to (2 and 1).
  const game = sampleGame({
    roster: [
      { key: 'p1', jersey: '7', playerName: 'Ann Lee', playCount: 5, location: 1 },
      { key: 'p2', jersey: '23', playerName: 'Bo Ray', playCount: 1, location: 2 },
    ],
  });

  async function seedOldRelease(db: Db) {
    await migrate(db, { upTo: '0054' });
    const q = (sql: string, params: unknown[]) => db.query(sql, params);
    await q('INSERT INTO users (uid) VALUES ($1)', ['u-a']);
    await q(
      `INSERT INTO teams (team_key, uid, team_name, public_initials_only) VALUES ($1, $2, $3, true)`,
      ['teamA', 'u-a', 'Eagles'],
    );
    await q(
      `INSERT INTO play_count_games (game_key, uid, game, team_key, share_key)
       VALUES ($1, $2, $3, $4, $5)`,
      ['gameA', 'u-a', JSON.stringify(game), 'teamA', 'shareAshareAshareA01'],
    );
    expect(await migrate(db)).toContain('0055_playcount_events');
  }

  const t = useTestApp(kind, () => ({ emptyDatabase: true, beforeBuild: seedOldRelease }));

  it('keeps its snaps and counts, as events and a baseline, and undo works on them', async () => {
    const user = await signInLocal(t.app, 'Migrated coach');
    await t.db.query('UPDATE sessions SET uid = $1 WHERE uid = $2', ['u-a', user.uid]);
    const read = async () =>
      playCountGameSchema.parse(
        (await user.request({ method: 'GET', url: `${API}/playcounts/gameA` })).json(),
      );
    const before = await read();
    expect(before.snaps).toEqual(game.snaps);
    expect(before.roster.map((p) => p.playCount)).toEqual([5, 1]);
    const log = await t.db.query<{ event_id: string; body: { kind: string } }>(
      'SELECT event_id, body FROM playcount_events WHERE game_key = $1 ORDER BY id',
      ['gameA'],
    );
    expect(log.map((e) => e.body.kind)).toEqual(['snap', 'snap', 'snap', 'baseline']);
    const row = await t.db.query<{ game: object; snap_total: number }>(
      'SELECT game, snap_total FROM play_count_games WHERE game_key = $1',
      ['gameA'],
    );
    expect(row[0]!.game).not.toHaveProperty('snaps');
    expect(row[0]!.snap_total).toBe(3);

    // Undo voids the last migrated snap (no players) and the snap before it is on the field.
    const undone = await user.request({
      method: 'DELETE',
      url: `${API}/playcounts/gameA/snaps/last`,
    });
    expect(undone.json()).toEqual({ snapCount: 3, snaps: 2 });
    const after = await read();
    expect(after.snaps).toEqual((game.snaps as unknown[]).slice(0, 2));
    expect(after.roster.map((p) => [p.playCount, p.location])).toEqual([
      [5, 1],
      [1, 1],
    ]);

    // The link keeps the sheet's initials, also once the sheet is deleted.
    const anon = anonymous(t.app);
    const names = async () =>
      sharedPlayCountSchema
        .parse(
          (
            await anon({ method: 'GET', url: `${API}/playcount-shares/shareAshareAshareA01` })
          ).json(),
        )
        .roster.map((p) => p.playerName);
    expect(await names()).toEqual(['A. L.', 'B. R.']);
    await t.db.query('DELETE FROM teams WHERE team_key = $1', ['teamA']);
    expect(await names()).toEqual(['A. L.', 'B. R.']);
  });
});
