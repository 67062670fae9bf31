import { describe, expect, it } from 'vitest';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { gameDetailOwnTopic, gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameOwnTopic } from '@sagan/shared/topics/game-own';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import { favoritesTopic } from '@sagan/shared/topics/user-favorites';
import { myGamesTopic } from '@sagan/shared/topics/user-games';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { upcomingGamesTopic } from '@sagan/shared/topics/upcoming-games';
import { tagsTopic } from '@sagan/shared/topics/tags';
import { tagTopic } from '@sagan/shared/topics/tag';
import { followedTagsTopic } from '@sagan/shared/topics/user-followed-tags';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { playCountShareTopic } from '@sagan/shared/topics/playcount-share';
import * as viewer from './viewer-topics.ts';
import * as shell from './shell-readers.ts';
import * as roster from './roster-topic.ts';
import * as lists from './list-topics.ts';
import { playCountShareTopic as shareViewed } from './playcount-share-topic.ts';

// Each viewer family is its shared family with the schema read by a shape (shape.test.ts holds
// the readers to the schemas): the rest must be the shared family's own.
const pairs = [
  [viewer.gameTopic, gameTopic],
  [viewer.gameOwnTopic, gameOwnTopic],
  [viewer.clockTopic, clockTopic],
  [viewer.gameDetailTopic, gameDetailTopic],
  [viewer.gameDetailOwnTopic, gameDetailOwnTopic],
  [viewer.favoritesTopic, favoritesTopic],
  [viewer.myGamesTopic, myGamesTopic],
  [shell.myNoticesTopic, myNoticesTopic],
  [roster.rosterTopic, rosterTopic],
  [lists.recentGamesTopic, recentGamesTopic],
  [lists.upcomingGamesTopic, upcomingGamesTopic],
  [lists.tagsTopic, tagsTopic],
  [lists.tagTopic, tagTopic],
  [lists.followedTagsTopic, followedTagsTopic],
  [lists.myScoringTopic, myScoringTopic],
  [shareViewed, playCountShareTopic],
] as const;

describe('viewer topic families', () => {
  it.each(pairs)('%#: the shared family, names and flags alike', (mine, shared) => {
    const flags = (f: object) =>
      Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'schema' && k !== 'name'));
    expect(flags(mine)).toEqual(flags(shared));
    for (const arg of ['k1', '-Mx3abc_Z', 'uid-42']) expect(mine.name(arg)).toBe(shared.name(arg));
  });

  it('reads the recent and the upcoming games with one shape, as they share one schema', () => {
    expect(upcomingGamesTopic.schema).toBe(recentGamesTopic.schema);
  });

  it('reads null where the shared schema allows it (a game that does not exist)', () => {
    expect(viewer.gameTopic.schema.safeParse(null)).toEqual(gameTopic.schema.safeParse(null));
    expect(viewer.clockTopic.schema.safeParse(null).success).toBe(true);
    expect(viewer.favoritesTopic.schema.safeParse(null).success).toBe(false);
  });
});
