import { describe, expect, it } from 'vitest';
import { findProduct, readExport } from './read-export.ts';
import { SAMPLE, sampleExport } from './sample-export.ts';
import { parseArgs, uidMapFromAuthExport } from './cli.ts';
import { renderBar } from './progress.ts';

describe('readExport', () => {
  it('finds the product folder and maps uids everywhere', () => {
    expect(findProduct(sampleExport())).toBe('sagan');
    const plan = readExport(sampleExport(), { uidMap: { [SAMPLE.ownerUid]: 'new-uid' } });
    expect(plan.users.map((u) => u.uid).sort()).toEqual(['fanUid456', 'import:unowned', 'new-uid']);
    expect(plan.teams[0]?.uid).toBe('new-uid');
    expect(plan.rosters[0]?.uid).toBe('new-uid');
    expect(plan.playCounts[0]?.uid).toBe('new-uid');
    expect(plan.games.find((g) => g.gameKey === SAMPLE.gameKey)?.uid).toBe('new-uid');
  });

  it('reads numbers stored as text and flags stored as 1', () => {
    const plan = readExport(sampleExport());
    const game = plan.games.find((g) => g.gameKey === SAMPLE.gameKey);
    expect(game?.fields).toMatchObject({ homeScore: 42, homePossession: true });
  });

  it('reports keys no link could reach, and bad fields, instead of dropping them silently', () => {
    const data = sampleExport();
    const games = (data.sagan as { games: Record<string, unknown> }).games;
    games['bad key!'] = { top: { gameName: 'x' } };
    games['-ok'] = { top: { homeScore: -1 } };
    const plan = readExport(data);
    expect(plan.problems).toEqual(
      expect.arrayContaining([
        { path: 'sagan/games/bad key!', reason: expect.stringContaining('URL-safe') },
        { path: 'sagan/games/-ok/top', reason: expect.stringContaining('homeScore') },
      ]),
    );
  });

  it('reports a team, published sheet or play count under a bad key or not an object', () => {
    const data = sampleExport() as Record<string, Record<string, unknown>>;
    data.teams!['bad key!'] = {};
    data.rosters!['-notAnObject'] = 'a roster';
    data.gamesPC!['bad key!'] = {};
    const plan = readExport(data);
    expect(plan.problems).toEqual(
      expect.arrayContaining([
        { path: 'teams/bad key!', reason: expect.stringContaining('URL-safe') },
        { path: 'rosters/-notAnObject', reason: 'not an object' },
        { path: 'gamesPC/bad key!', reason: expect.stringContaining('URL-safe') },
      ]),
    );
    expect(plan.teams.map((t) => t.teamKey)).not.toContain('bad key!');
  });

  it('joins two tags of the same name and says so', () => {
    const data = sampleExport();
    const tags = (data.sagan as { tags: Record<string, unknown> }).tags;
    tags['-NxTagLions2'] = {
      name: 'LIONS',
      serverTimeStamp: 1800000000000,
      games: { [SAMPLE.gameKey]: true },
    };
    const plan = readExport(data);
    expect(plan.tags.map((t) => t.tagKey)).toEqual([SAMPLE.tagKey]);
    expect(plan.gameTags).toEqual([{ gameKey: SAMPLE.gameKey, tagKey: SAMPLE.tagKey }]);
    expect(plan.warnings.some((w) => w.path === 'sagan/tags/-NxTagLions2')).toBe(true);
  });

  it('refuses a play count nobody owns (they are private)', () => {
    const data = sampleExport();
    (data.gamesPC as Record<string, unknown>)['-NxPC2'] = {
      gameName: 'x',
      gameDate: 'y',
      roster: [],
      snaps: [],
    };
    const plan = readExport(data);
    expect(plan.problems.some((p) => p.path === 'gamesPC/-NxPC2')).toBe(true);
  });

  it('throws a clear error when the product folder is ambiguous', () => {
    expect(() => readExport({ a: { games: {} }, b: { games: {} } })).toThrow(/--product/);
  });
});

describe('import command line', () => {
  it('parses options and refuses unknown ones', () => {
    expect(parseArgs(['x.json', '--uid-map', 'm.json'], {})).toMatchObject({
      file: 'x.json',
      uidMap: 'm.json',
      dataDir: './data',
    });
    expect(parseArgs(['--data-dir=/d', 'x.json'], { DATABASE_URL: 'postgres://x' })).toMatchObject({
      dataDir: '/d',
      databaseUrl: 'postgres://x',
    });
    expect(() => parseArgs(['--nope', 'x.json'], {})).toThrow(/Unknown option/);
    expect(() => parseArgs([], {})).toThrow(/exactly one/);
  });
  it('maps Firebase uids to Google account ids from an auth export', () => {
    const out = uidMapFromAuthExport({
      users: [
        { localId: 'fbA', providerUserInfo: [{ providerId: 'google.com', rawId: '1098' }] },
        { localId: 'fbB', providerUserInfo: [{ providerId: 'password', rawId: 'b@x' }] },
      ],
    });
    expect(out).toEqual({ map: { fbA: '1098' }, withoutGoogle: ['fbB'] });
    expect(() => uidMapFromAuthExport({})).toThrow(/users/);
  });
  it('draws a bar', () => {
    expect(renderBar(5, 10, 10)).toBe('[#####.....]  50% 5/10');
  });
});
