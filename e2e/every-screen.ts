import { createGame, unique } from './fixtures.ts';
import { createGroup, createTeam, rosterOf, putPlayCount } from './seed.ts';

/** A route of SPEC §2 and a text that shows the screen has loaded. */
export type Screen = [path: string, ready: string | RegExp];

interface Caller {
  call: (method: string, path: string, data?: unknown) => Promise<unknown>;
}

/**
 * Seeds one of everything through the API, as the phone apps would, and lists every screen of
 * SPEC §2 with it: the page-by-page checks (accessibility, CSP) walk the same screens.
 */
export async function seedEveryScreen(me: Caller): Promise<{ gameKey: string; screens: Screen[] }> {
  const gameKey = await createGame(me, {
    gameName: 'Cup final',
    sportID: 7,
    homeTeamName: 'Lions',
    awayTeamName: 'Tigers',
    gamePeriod: 'Final',
  });
  await me.call('PATCH', `/games/${gameKey}`, { homeScore: 3, awayScore: 1, base1: true, outs: 2 });
  await me.call('POST', `/games/${gameKey}/comments`, { gameComment: 'What a catch!' });
  const tag = unique('a11y').replace(' ', '');
  const { tags } = (await me.call('PUT', `/games/${gameKey}/tags`, { tags: [tag] })) as {
    tags: { key: string }[];
  };
  await me.call('PUT', `/me/favorite-scoreboards/${gameKey}`);
  const teamKey = await createTeam(me, { players: ['7 Ada Lovelace', '12 Grace Hopper'] });
  const roster = await rosterOf(me, teamKey);
  // Keys are random, so the roster's order is not the upload's: pick Ada by name.
  const playerKey = roster.find((p) => p.playerName === 'Ada Lovelace')!.key;
  const graceKey = roster.find((p) => p.playerName === 'Grace Hopper')!.key;
  // The group page then draws the two longest statuses: Playing (Ada) and Sideline (Grace).
  const groupKey = await createGroup(me, teamKey, 'First half', [
    [playerKey, 1],
    [graceKey, 2],
  ]);
  // A long group name: its badge beside the roster's Edit link must leave the link whole.
  await createGroup(me, teamKey, 'Second half kick-off receiving unit', [[playerKey, 2]]);
  const { publishedAsKey } = (await me.call('POST', `/teams/${teamKey}/publish`)) as {
    publishedAsKey: string;
  };
  const pcKey = await putPlayCount(me, {
    gameName: 'Lions v Bears',
    gameDate: '2025-05-04',
    roster: [
      { key: 'p1', jersey: '7', playerName: 'Ada Lovelace', playCount: 2, location: 1 },
      { key: 'p2', jersey: '12', playerName: 'Grace Hopper', playCount: 1, location: 2 },
    ],
    snaps: [{ snapCount: 1, groupName: 'O', quarter: 1, p1: true }],
  });
  // The sideline counter's count of the same sheet, shared with parents.
  const { gameKey: countKey } = (await me.call('POST', '/playcounts', {
    teamKey,
    gameName: 'Lions v Owls',
    gameDate: '2025-05-11',
    minPlays: 3,
    playersPerSnap: 11,
  })) as { gameKey: string };
  await me.call('POST', `/playcounts/${countKey}/snaps`, { quarter: 1, players: [playerKey] });
  const { shareKey } = (await me.call('PUT', `/playcounts/${countKey}/share`)) as {
    shareKey: string;
  };

  const screens: Screen[] = [
    ['/', 'Current Games'],
    ['/login', 'Login'],
    ['/scoreboards', 'My Games'],
    [`/taggedscoreboards/${tags[0]!.key}`, `Scoreboards Tagged #${tag}`],
    [`/viewscoreboard/${gameKey}`, 'Comments'],
    [`/viewscoreboardmini/${gameKey}`, 'Cup final'],
    ['/teamsheets', 'My Teams'],
    [`/teamsheets/${publishedAsKey}`, 'New Team'],
    [`/teamsheets/${publishedAsKey}/${playerKey}`, /Ada Lovelace/],
    [`/teamsheetedit/${teamKey}`, 'Roster'],
    [`/teamsheetgroupedit/${teamKey}/${groupKey}`, 'First half'],
    [`/teamsheetgroupedit/${teamKey}`, /Group/],
    [`/teamsheetbulk/${teamKey}`, 'Bulk Upload'],
    [`/teamsheetedit/${teamKey}/${playerKey}`, 'Edit Player'],
    [`/teamsheetedit/${teamKey}/-1`, /Player/],
    ['/playcounts', 'Play Counts'],
    [`/playcount/${pcKey}`, 'Lions v Bears'],
    ['/playcounts/new', 'New play count'],
    [`/playcount/${countKey}/count`, 'On Field'],
    [`/playcountseason/${teamKey}`, 'New Team: season'],
    [`/playcountshare/${shareKey}`, 'Live play count'],
    [`/scoringseason/${teamKey}`, 'New Team: season points'],
    ['/no-such-page', /not found/i],
  ];
  return { gameKey, screens };
}
