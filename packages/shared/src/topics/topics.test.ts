import { describe, expect, it } from 'vitest';
import { topicSchema } from '../realtime.ts';
import { clockTopic } from './clock.ts';
import { gameTopic } from './game.ts';
import { gameDetailOwnTopic, gameDetailTopic } from './game-detail.ts';

import { coscorersTopic } from './coscorers.ts';
import { gameHeldTopic } from './game-held.ts';
import { gameHistoryTopic } from './game-history.ts';
import { gameOwnTopic } from './game-own.ts';
import { playCountTopic } from './playcount.ts';
import { playCountShareTopic } from './playcount-share.ts';
import { recentGamesTopic } from './recent-games.ts';
import { rosterTopic } from './roster.ts';
import { tagTopic } from './tag.ts';
import { tagsTopic } from './tags.ts';
import { upcomingGamesTopic } from './upcoming-games.ts';
import { teamTopic } from './team.ts';
import { favoritesTopic } from './user-favorites.ts';
import { followedTagsTopic } from './user-followed-tags.ts';
import { myGamesTopic } from './user-games.ts';
import { myPlayCountsTopic } from './user-playcounts.ts';
import { userTopicName } from './user.ts';

const KEY = '-Nx1_aB9';
// Imported uids are not keys: they may hold ':' (the hub splits user topics at the last one).
const UID = 'google:1234';

/** Every family with the name it builds for sample arguments, and who may read it. */
const families = [
  { family: gameTopic, name: gameTopic.name(KEY), isPrivate: false },
  { family: clockTopic, name: clockTopic.name(KEY), isPrivate: false },
  { family: gameDetailTopic, name: gameDetailTopic.name(KEY), isPrivate: false },
  // The scorekeeper's own history of changes.
  { family: gameHistoryTopic, name: gameHistoryTopic.name(KEY), isPrivate: true },
  // What waits for a scorer's decision: the game's scorers only.
  { family: gameHeldTopic, name: gameHeldTopic.name(KEY), isPrivate: true },
  // The game as its scorers and the operators see it, hidden or not.
  { family: gameOwnTopic, name: gameOwnTopic.name(KEY), isPrivate: true },
  // The detail as its scorers see it: names the public is not shown.
  { family: gameDetailOwnTopic, name: gameDetailOwnTopic.name(KEY), isPrivate: true },

  // The owner's list of co-scorers.
  { family: coscorersTopic, name: coscorersTopic.name('game', KEY), isPrivate: true },
  { family: recentGamesTopic, name: recentGamesTopic.name(), isPrivate: false },
  { family: tagsTopic, name: tagsTopic.name(), isPrivate: false },
  { family: upcomingGamesTopic, name: upcomingGamesTopic.name(), isPrivate: false },
  { family: tagTopic, name: tagTopic.name(KEY), isPrivate: false },
  { family: rosterTopic, name: rosterTopic.name(KEY), isPrivate: false },
  { family: teamTopic, name: teamTopic.name(KEY), isPrivate: true },
  { family: playCountTopic, name: playCountTopic.name(KEY), isPrivate: true },
  // A shared link's view is read by whoever holds the link, signed in or not.
  { family: playCountShareTopic, name: playCountShareTopic.name(KEY), isPrivate: false },
  { family: myGamesTopic, name: myGamesTopic.name(UID), isPrivate: true },
  { family: favoritesTopic, name: favoritesTopic.name(UID), isPrivate: true },
  { family: followedTagsTopic, name: followedTagsTopic.name(UID), isPrivate: true },
  { family: myPlayCountsTopic, name: myPlayCountsTopic.name(UID), isPrivate: true },
];

describe('topic families', () => {
  it.each(families)('$name is a topic the server accepts, under its prefix', ({ family, name }) => {
    expect(topicSchema.safeParse(name).success).toBe(true);
    // The hub finds the family by the part before the first ':'.
    expect(name.split(':')[0]).toBe(family.prefix);
  });

  it('builds the names the server has always served', () => {
    expect(families.map((f) => f.name)).toEqual([
      `game:${KEY}`,
      `clock:${KEY}`,
      `gamedetail:${KEY}`,
      `gamehistory:${KEY}`,
      `gameheld:${KEY}`,
      `gameown:${KEY}`,
      `gamedetailown:${KEY}`,

      `coscorers:game:${KEY}`,
      'games:recent',
      'tags',
      'upcoming',
      `tag:${KEY}`,
      `roster:${KEY}`,
      `team:${KEY}`,
      `playcount:${KEY}`,
      `playcountshare:${KEY}`,
      `user:${UID}:games`,
      `user:${UID}:favorites`,
      `user:${UID}:followedTags`,
      `user:${UID}:playcounts`,
    ]);
  });

  it.each(families)('$name is coalesced exactly when many writers feed it', ({ family, name }) => {
    // DESIGN §9: the lists of many games are coalesced; one game's own topics never are.
    const aggregates = [
      'games:recent',
      'tags',
      'upcoming',
      `tag:${KEY}`,
      `user:${UID}:games`,
      `user:${UID}:favorites`,
      `user:${UID}:followedTags`,
    ];
    expect(family.coalesce).toBe(aggregates.includes(name));
  });

  it.each(families)('$name is private exactly when it is one user’s', ({ family, isPrivate }) => {
    expect(family.private).toBe(isPrivate);
  });

  it('gives each family its own prefix, the per-user lists aside', () => {
    const prefixes = families.map((f) => f.family.prefix).filter((p) => p !== 'user');
    expect(new Set(prefixes).size).toBe(prefixes.length);
    const lists = [myGamesTopic, favoritesTopic, followedTagsTopic, myPlayCountsTopic];
    expect(new Set(lists.map((l) => l.list)).size).toBe(lists.length);
    for (const l of lists) expect(l.name(UID)).toBe(userTopicName(UID, l.list));
  });

  it('parses each state with its schema, null where the thing may not exist', () => {
    expect(gameTopic.schema.safeParse(null).success).toBe(true);
    const clock = { formattedTime: '8:00', seconds: 480, serverTime: 1 };
    const state = { running: true, startedAt: 1, direction: 'down', limit: null };
    expect(clockTopic.schema.safeParse({ ...clock, ...state }).success).toBe(true);
    // Without the state a viewer could not compute a running clock.
    expect(clockTopic.schema.safeParse(clock).success).toBe(false);
    expect(gameHistoryTopic.schema.safeParse(null).success).toBe(true);
    expect(gameHeldTopic.schema.safeParse(null).success).toBe(true);
    expect(gameOwnTopic.schema.safeParse(null).success).toBe(true);

    expect(coscorersTopic.schema.safeParse(null).success).toBe(true);
    expect(rosterTopic.schema.safeParse(null).success).toBe(true);
    expect(teamTopic.schema.safeParse(null).success).toBe(true);
    expect(playCountShareTopic.schema.safeParse(null).success).toBe(true); // a revoked link
    expect(recentGamesTopic.schema.safeParse([]).success).toBe(true);
    expect(myPlayCountsTopic.schema.safeParse({ games: [] }).success).toBe(true);
    expect(myPlayCountsTopic.schema.safeParse([]).success).toBe(false);
    expect(recentGamesTopic.schema.safeParse(null).success).toBe(false);
  });

  it('does not build a per-user list nothing serves', () => {
    // @ts-expect-error 'teams' is not a list the server serves
    expect(userTopicName(UID, 'teams')).toBe(`user:${UID}:teams`);
  });
});
