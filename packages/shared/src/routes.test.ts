import { describe, expect, it } from 'vitest';
import { pathTo, routes } from './routes.ts';

describe('SPEC §2 route table', () => {
  it('has exactly the spec routes, names and access rules', () => {
    expect(Object.keys(routes)).toEqual([
      'dashboard',
      'Login',
      'scoreboards',
      'taggedScoreboards',
      'scoreboard',
      'scoreboardmini',
      'teamsheets',
      'teamsheet',
      'teamsheetPlayer',
      'teamsheetedit',
      'teamsheetgroupedit',
      'teamsheetbulk',
      'teamsheetplayeredit',
      'playcounts',
      'playcount',
      'newgame',
      'scoregame',
      'playcountnew',
      'playcountcount',
      'playcountseason',
      'playcountshared',
      'scoringseason',
      'privacy',
      'termsOfService',
      // The operators' queue (moderation): not in the SPEC's table.
      'admin',
      'invite',
    ]);
    const protectedRoutes = Object.entries(routes)
      .filter(([, r]) => r.auth)
      .map(([n]) => n);
    expect(protectedRoutes).toEqual([
      'teamsheetedit',
      'teamsheetgroupedit',
      'teamsheetbulk',
      'teamsheetplayeredit',
      'playcounts',
      'playcount',
      'newgame',
      'scoregame',
      'playcountnew',
      'playcountcount',
      'playcountseason',
      'scoringseason',
      'admin',
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
