import { gameTopic } from '@sagan/shared/topics/game';
import { myNoticesTopic } from '@sagan/shared/topics/user-notices';
import type { Queryable } from '../../db/db.ts';
import { gameAudienceTopics, tagAudienceTopics } from '../scoreboards/public.ts';

/** What a moderation write changed, as far as who hears of it goes. */
export type ModerationChange =
  /** An owner dismissed one of their notices. */
  | { kind: 'notice'; uid: string }
  /** A game hidden, restored or its reports dismissed; its owner is told. */
  | { kind: 'game'; gameKey: string; ownerUid: string }
  /** A comment hidden or restored; the game's owner is told. */
  | { kind: 'comment'; gameKey: string; ownerUid: string }
  /** A person blocked or unblocked: every game of theirs leaves or comes back. */
  | { kind: 'user'; uid: string; games: readonly string[] }
  /** A tag hidden or restored, with the games that carry it. */
  | { kind: 'tag'; tagKey: string; games: readonly string[] };

/**
 * The topics a moderation write touches, decided here, never in a route or the repo. A game's
 * audience (every list, tag count and viewer showing it) is read from the database, so this
 * runs inside the write's transaction.
 */
export async function audienceOf(q: Queryable, change: ModerationChange): Promise<string[]> {
  switch (change.kind) {
    case 'notice':
      return [myNoticesTopic.name(change.uid)];
    case 'game':
      return [
        ...(await gameAudienceTopics(q, change.gameKey, change.ownerUid)),
        myNoticesTopic.name(change.ownerUid),
      ];
    case 'comment':
      // The game's page, public and scorers' view alike.
      return [gameTopic.name(change.gameKey), myNoticesTopic.name(change.ownerUid)];
    case 'user': {
      const topics = [myNoticesTopic.name(change.uid)];
      for (const gameKey of change.games) {
        topics.push(...(await gameAudienceTopics(q, gameKey, change.uid)));
      }
      return [...new Set(topics)];
    }
    case 'tag':
      return tagAudienceTopics(q, change.tagKey, [...change.games]);
  }
}
