import { describe, expect, it } from 'vitest';
import { opensUnisolated, pathTo, routes } from './routes.ts';

describe('SPEC §2 route table', () => {
  it('has exactly the spec routes, names and access rules', () => {
    // Each route's name and whether it asks the visitor to sign in.
    expect(Object.entries(routes).map(([name, r]) => [name, r.auth])).toEqual([
      ['dashboard', false],
      ['Login', false],
      ['scoreboards', false],
      ['taggedScoreboards', false],
      ['scoreboard', false],
      ['scoreboardmini', false],
      ['teamsheets', false],
      ['teamsheet', false],
      ['teamsheetPlayer', false],
      ['teamsheetedit', true],
      ['teamsheetgroupedit', true],
      ['teamsheetbulk', true],
      ['teamsheetplayeredit', true],
      ['playcounts', true],
      ['playcount', true],
      ['newgame', true],
      ['scoregame', true],
      ['playcountnew', true],
      ['playcountcount', true],
      ['playcountseason', true],
      ['playcountshared', false],
      ['scoringseason', true],
      ['privacy', false],
      ['termsOfService', false],
      // The operators' queue (moderation): not in the SPEC's table.
      ['admin', true],
      ['invite', false],
    ]);
  });

  it('builds paths from names and params, encoding them', () => {
    expect(pathTo('dashboard')).toBe('/');
    expect(pathTo('scoreboard', { gameKey: 'abc' })).toBe('/viewscoreboard/abc');
    expect(pathTo('teamsheetplayeredit', { teamKey: 't1', playerKey: -1 })).toBe(
      '/teamsheetedit/t1/-1',
    );
    expect(pathTo('taggedScoreboards', { tagID: 'a b/c' })).toBe('/taggedscoreboards/a%20b%2Fc');
  });

  it('drops an empty optional group key (a new group) and refuses a missing required one', () => {
    expect(pathTo('teamsheetgroupedit', { teamKey: 't1' })).toBe('/teamsheetgroupedit/t1');
    expect(pathTo('teamsheetgroupedit', { teamKey: 't1', groupKey: 'g' })).toBe(
      '/teamsheetgroupedit/t1/g',
    );
    expect(() => pathTo('playcount')).toThrow(/gameKey/);
  });
});

describe('opensUnisolated', () => {
  it("is true of a fan's public pages only, never of sign-in, lists per user or input screens", () => {
    for (const path of [
      '/',
      '/taggedscoreboards/t1',
      '/viewscoreboard/g1',
      '/viewscoreboard/g1/',
      '/viewscoreboardmini/g1',
      '/teamsheets/s1',
      '/teamsheets/s1/p1',
      '/playcountshare/k1',
    ])
      expect(opensUnisolated(path), path).toBe(true);
    for (const path of [
      '/login',
      '/scoreboards',
      '/teamsheets',
      '/teamsheetedit/t1',
      '/scoregame/g1',
      '/newgame',
      '/playcount/g1/count',
      '/admin',
      '/invite',
      '/viewscoreboard/g1/extra',
      '/viewscoreboard',
      '//',
    ])
      expect(opensUnisolated(path), path).toBe(false);
  });
});
