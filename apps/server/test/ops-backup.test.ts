import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db, type Queryable } from '../src/db/db.ts';
import { tableNames } from '../src/db/moment.ts';
import { photoStoreOf } from '../src/routes/photos/public.ts';
import { readManifest, restoreBackup, RestoreError } from '../src/ops/restore.ts';
import { BACKUP_TOKEN_FILE, BACKUP_TOKEN_HEADER } from '../src/routes/ops/backup.ts';
import { API, anonymous, databaseKinds, useTempDir, useTestApp } from './helpers.ts';
import { makeWorld, type World } from './security-world.ts';

/** Every row of a table as text, sorted: what "the same table" means below. */
async function rowsOf(q: Queryable, table: string): Promise<string[]> {
  const rows = await q.query<{ row: string }>(
    `SELECT t::text AS row FROM "${table}" t ORDER BY t::text`,
  );
  return rows.map((r) => r.row);
}

describe.each(databaseKinds())('backup and restore ($name)', (kind) => {
  const source = useTempDir('sagan-backup-src-');
  const target = useTempDir('sagan-backup-dst-');
  const t = useTestApp(kind, () => ({ config: { dataDir: source() } }));
  // pg_dump connects on its own, with the URL a PostgreSQL server is configured with.
  beforeAll(() => {
    t.app.config.databaseUrl = t.database.url;
  });
  let world: World;
  let restored: Db | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  const backupOver = (token: string | undefined, headers: Record<string, string> = {}) =>
    anonymous(t.app)({
      method: 'POST',
      url: `${API}/ops/backup`,
      headers: { ...(token === undefined ? {} : { [BACKUP_TOKEN_HEADER]: token }), ...headers },
    });
  const token = () => fs.readFileSync(path.join(source(), BACKUP_TOKEN_FILE), 'utf8');

  it('answers 404 without the token from the data folder, or through a proxy', async () => {
    expect((await backupOver(undefined)).statusCode).toBe(404);
    expect((await backupOver('x'.repeat(43))).statusCode).toBe(404);
    const proxied = await backupOver(token(), { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.statusCode).toBe(404);
  });

  // A whole backup and restore of an embedded database: seconds on an idle machine, but a loaded
  // 2-core runner can take the default 30 s for it alone.
  it('backs up a server under writes; a restore gives back every table and photo as it was then', async () => {
    world = await makeWorld(t.app);
    const commentsUrl = `${API}/games/${world.gameKey}/comments`;
    // A scorekeeper writing comments one after another while the backup starts. Bounded: on
    // PGlite each write holds this thread, and an endless writer only slows the backup's copy.
    let acknowledged = 0;
    let stop = false;
    const failures: string[] = [];
    const writer = (async () => {
      while (!stop && acknowledged + failures.length < 30) {
        const res = await world.owner.request({
          method: 'POST',
          url: commentsUrl,
          payload: { gameComment: `w${acknowledged + 1}` },
        });
        if (res.statusCode !== 200) failures.push(`${res.statusCode} ${res.body}`);
        else acknowledged++;
      }
    })();
    while (acknowledged < 3) await new Promise((r) => setImmediate(r));
    const ackedBefore = acknowledged;
    const res = await backupOver(token());
    const ackedAfter = acknowledged;
    stop = true;
    await writer;
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(failures).toEqual([]);
    // No write was lost: every acknowledged comment is in the source.
    const sourceComments = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_comments WHERE game_key = $1 AND comment->>'gameComment' LIKE 'w%'`,
      [world.gameKey],
    );
    expect(sourceComments[0]!.n).toBe(acknowledged);

    const file = path.join(target(), 'backup.tar');
    fs.writeFileSync(file, res.rawPayload);
    const manifest = await readManifest(file);
    expect(manifest.database).toBe(kind.name);
    if (kind.name === 'pglite') expect(manifest.pgliteVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.moment.tables['sessions']).toBeUndefined();
    expect(manifest.photos).toBe(1);

    const dataDir = path.join(target(), 'data');
    if (kind.name === 'pglite') {
      await restoreBackup(file, { dataDir });
      restored = await openPglite(dataDir);
      cleanups.push(() => restored!.close());
    } else {
      // A restore wants a database with nothing in it: not the migrated one tests start from.
      const fresh = await kind.open({ empty: true });
      cleanups.push(() => fresh.cleanup());
      await restoreBackup(file, { dataDir, databaseUrl: fresh.url });
      restored = fresh.db;
    }
    const db = restored;

    // The comments restored are the first k written, k between what was acknowledged when the
    // backup began and when it answered: one moment, not a mix.
    const texts = (
      await db.query<{ text: string }>(
        `SELECT comment->>'gameComment' AS text FROM game_comments
          WHERE game_key = $1 AND comment->>'gameComment' LIKE 'w%'`,
        [world.gameKey],
      )
    ).map((r) => r.text);
    const k = texts.length;
    expect(k).toBeGreaterThanOrEqual(ackedBefore);
    expect(k).toBeLessThanOrEqual(ackedAfter + 1);
    expect(texts.sort()).toEqual(Array.from({ length: k }, (_, i) => `w${i + 1}`).sort());

    // The moment is recorded as the newest entry of each log: the restore holds every comment
    // up to it and none after, and the source's comments after it are exactly those missing.
    const highest = manifest.moment.highest ?? {};
    expect(Object.keys(highest)).toEqual(
      expect.arrayContaining(['game_comments.id', 'playcount_events.id', 'game_events.at']),
    );
    const newest = highest['game_comments.id']!;
    const [kept] = await db.query<{ max: string; n: number }>(
      'SELECT max(id)::text AS max, count(*)::int AS n FROM game_comments',
    );
    expect(kept!.max).toBe(newest);
    const [src] = await t.db.query<{ n: number; after: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE id > $1)::int AS after FROM game_comments',
      [newest],
    );
    expect(src!.after).toBe(src!.n - kept!.n);
    const [events] = await db.query<{ at: string }>('SELECT max(at)::text AS at FROM game_events');
    expect(events!.at).toBe(highest['game_events.at']);

    // Every table: the tables the writes after the moment touched hold a prefix of the
    // source's rows; every other table is the source's, row for row.
    const tables = await tableNames(db);
    expect(tables.sort()).toEqual((await tableNames(t.db)).sort());
    const movedSince = new Set([
      'game_comments',
      'games',
      'game_history',
      'topic_seq',
      'idempotency_keys',
      'nodes',
      'node_watchers',
    ]);
    for (const table of tables) {
      const now = await rowsOf(db, table);
      const src = await rowsOf(t.db, table);
      if (table === 'sessions') {
        expect(now, 'sessions are not restored').toEqual([]);
        expect(src.length).toBeGreaterThan(0);
      } else if (movedSince.has(table)) {
        if (table === 'game_comments') {
          for (const row of now) expect(src, `${table} row`).toContain(row);
        }
        expect(now.length, table).toBeLessThanOrEqual(src.length);
      } else {
        expect(now, table).toEqual(src);
      }
    }
    for (const table of ['users', 'games', 'teams', 'players', 'photos', 'play_count_games']) {
      expect((await rowsOf(db, table)).length, table).toBeGreaterThan(0);
    }
    // Photos, byte for byte.
    const photoIds = (await db.query<{ id: string }>('SELECT id FROM photos')).map((r) => r.id);
    expect(photoIds.length).toBe(1);
    for (const id of photoIds) {
      const restoredBytes = fs.readFileSync(path.join(dataDir, 'photos', `${id}.jpg`));
      expect(
        restoredBytes.equals(fs.readFileSync(path.join(source(), 'photos', `${id}.jpg`))),
      ).toBe(true);
    }
  }, 120_000);

  it('refuses to restore over data, and leaves it as it was', async () => {
    const file = path.join(target(), 'backup.tar');
    const dataDir = path.join(target(), 'data');
    const before = fs.readdirSync(path.join(dataDir, 'photos'));
    const into =
      kind.name === 'pglite'
        ? { dataDir }
        : { dataDir: path.join(target(), 'x'), databaseUrl: t.database.url };
    await expect(restoreBackup(file, into)).rejects.toBeInstanceOf(RestoreError);
    expect(fs.readdirSync(path.join(dataDir, 'photos'))).toEqual(before);
  });

  it('a photo deleted during a backup stops answering at once; its file goes once the backup has it', async () => {
    const photos = path.join(source(), 'photos');
    const release = photoStoreOf(source()).holdDeletions();
    const filesBefore = fs.readdirSync(photos);
    expect(filesBefore.length).toBe(1);
    const del = await world.owner.request({
      method: 'DELETE',
      url: `${API}/teams/${world.teamKey}/players/${world.playerKey}`,
    });
    expect(del.statusCode).toBe(200);
    const own = await world.owner.request({
      method: 'GET',
      url: `${API}/teams/${world.teamKey}/players/${world.playerKey}/photo`,
    });
    expect(own.statusCode).toBe(404);
    expect(fs.readdirSync(photos)).toEqual(filesBefore);
    await release();
    expect(fs.readdirSync(photos)).toEqual([]);
  });
});
