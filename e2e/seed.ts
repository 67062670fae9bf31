// What tests set up through the API, as the phone apps would: a scorekeeper's game, a coach's
// team with its players and groups.
import type { APIRequestContext } from '@playwright/test';
import { apiAs, createGame, unique, type Api } from './fixtures.ts';

/** A scorekeeper of the test's own (a phone app, through the API) and a game they created. */
export async function keeperWithGame(
  request: APIRequestContext,
  fields: Record<string, unknown> = {},
): Promise<{ keeper: Api; gameKey: string }> {
  const keeper = await apiAs(request, unique('Keeper'));
  return { keeper, gameKey: await createGame(keeper, fields) };
}

/**
 * Creates a team through the API (as the phone app would): named when a name is given, with
 * players bulk-added from lines such as '7 Ada Lovelace'. Answers its key.
 */
export async function createTeam(
  owner: Pick<Api, 'call'>,
  {
    teamName,
    teamNotes = '',
    players = [],
  }: { teamName?: string; teamNotes?: string; players?: string[] } = {},
): Promise<string> {
  const { teamKey } = (await owner.call('POST', '/teams')) as { teamKey: string };
  if (teamName !== undefined) {
    await owner.call('PATCH', `/teams/${teamKey}`, { teamName, teamNotes });
  }
  if (players.length) {
    await owner.call('POST', `/teams/${teamKey}/players/bulk`, { text: players.join('\n') });
  }
  return teamKey;
}

/** A team's roster as its owner reads it. */
export async function rosterOf(
  owner: Pick<Api, 'call'>,
  teamKey: string,
): Promise<{ key: string; jersey: string; playerName: string }[]> {
  const sheet = (await owner.call('GET', `/teams/${teamKey}`)) as {
    roster: { key: string; jersey: string; playerName: string }[];
  };
  return sheet.roster;
}

/**
 * Creates a group of a team with players placed in it (by key: 1 playing, 2 on the sideline);
 * answers its key.
 */
export async function createGroup(
  owner: Pick<Api, 'call'>,
  teamKey: string,
  groupName: string,
  locations: [playerKey: string, location: number][] = [],
): Promise<string> {
  const { groupKey } = (await owner.call('POST', `/teams/${teamKey}/groups`, { groupName })) as {
    groupKey: string;
  };
  for (const [playerKey, location] of locations) {
    await owner.call('PUT', `/teams/${teamKey}/groups/${groupKey}/members/${playerKey}`, {
      location,
    });
  }
  return groupKey;
}

/** A key for a play count of the test's own (Player Counter makes its keys itself). */
export const newPlayCountKey = () => `e2e_${Math.random().toString(36).slice(2, 12)}`;

/** Writes a play count through the API as Player Counter does, under a new key; answers it. */
export async function putPlayCount(
  coach: Pick<Api, 'call'>,
  body: Record<string, unknown>,
): Promise<string> {
  const gameKey = newPlayCountKey();
  await coach.call('PUT', `/playcounts/${gameKey}`, body);
  return gameKey;
}
