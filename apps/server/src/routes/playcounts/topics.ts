import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '@sagan/shared/auth';
import { keySchema } from '@sagan/shared/keys';
import { playCountTopic } from '@sagan/shared/topics/playcount';
import { myPlayCountsTopic } from '@sagan/shared/topics/user-playcounts';
import { playCountShareTopic } from '@sagan/shared/topics/playcount-share';
import type { Queryable } from '../../db/db.ts';
import { roleOn } from '../../lib/game-guard.ts';
import { applyPlayCountDelta, type PlayCountDelta } from '@sagan/shared/playcount-delta';
import { findGame, findShared, listGames, ownerOf, sharedDelta, type CountChange } from './repo.ts';

/**
 * The topics a write to a user's game must bump, so open pages update live (DESIGN §4),
 * including the shared link's view while the game is shared.
 */
export const changedTopics = (uid: string, gameKey: string, shareKey: string | null) => [
  playCountTopic.name(gameKey),
  myPlayCountsTopic.name(uid),
  ...(shareKey ? [playCountShareTopic.name(shareKey)] : []),
];

/** What a play count write changed, as far as who hears of it goes. */
export type PlayCountChange =
  /** A count made, shared or its link revoked: `revoked` is the link that stopped working. */
  | { kind: 'listed'; uid: string; gameKey: string; shareKey: string | null; revoked?: string }
  /** A count's contents (a snap, an undo, a PUT, a PATCH), with what changed in them. */
  | { kind: 'counted'; uid: string; gameKey: string; change: CountChange };

/**
 * The topics a play count write touches, each with what changed when the write knows it: the
 * owner's delta, and the shared link's with the count's privacy applied (docs/decisions/0002,
 * amended). Decided here, never in a route or the repo.
 */
export function audienceOf(c: PlayCountChange): {
  touched: string[];
  merges?: Record<string, Record<string, unknown>>;
} {
  if (c.kind === 'listed') {
    return {
      touched: [
        ...changedTopics(c.uid, c.gameKey, c.shareKey),
        // The revoked link's view loads null: open viewers see it end.
        ...(c.revoked ? [playCountShareTopic.name(c.revoked)] : []),
      ],
    };
  }
  const { shareKey, delta, privacy } = c.change;
  return {
    touched: changedTopics(c.uid, c.gameKey, shareKey),
    merges: {
      [playCountTopic.name(c.gameKey)]: delta,
      ...(shareKey
        ? { [playCountShareTopic.name(shareKey)]: sharedDelta(shareKey, delta, privacy) }
        : {}),
    },
  };
}

/**
 * The shared-link views of a team's play counts: they show names and photos under the team
 * sheet's privacy option, so a change of that option must reach open views.
 */
export async function sharedViewsOfTeam(q: Queryable, teamKey: string): Promise<string[]> {
  const rows = await q.query<{ share_key: string }>(
    'SELECT share_key FROM play_count_games WHERE team_key = $1 AND share_key IS NOT NULL',
    [teamKey],
  );
  return rows.map((r) => playCountShareTopic.name(r.share_key));
}

/** A delta on a state that is null (a count gone, a link revoked) leaves it null. */
const applyDelta = (data: unknown, delta: unknown) =>
  data === null
    ? null
    : applyPlayCountDelta(
        data as { roster: Array<{ key: string }>; snaps: unknown[] },
        delta as PlayCountDelta,
      );

export function registerPlayCountTopics(app: FastifyInstance): void {
  const { hub, db } = app;

  // Play counts are private (SPEC §6): only the owner and its co-scorers may watch a game.
  hub.register({
    topic: playCountTopic,
    async authorize(user: SessionUser | null, gameKey: string) {
      if (!user || !keySchema.safeParse(gameKey).success) return false;
      const owner = await ownerOf(db, gameKey);
      return !!owner && (await roleOn(db, 'playcount', gameKey, owner, user.uid)) !== null;
    },
    load: (q, gameKey) => findGame(q, gameKey),
    delta: applyDelta,
  });

  // The shared link's view: whoever holds the unguessable key may watch; a revoked or made-up
  // key loads null.
  hub.register({
    topic: playCountShareTopic,
    authorize: (_user, shareKey) => keySchema.safeParse(shareKey).success,
    load: (q, shareKey) => findShared(q, shareKey),
    keyedBy: { table: 'play_count_games', column: 'share_key' },
    delta: applyDelta,
  });

  // user:{uid}:playcounts, to that uid only (the hub checks the uid).
  hub.registerUserList(myPlayCountsTopic, async (q, uid) => ({ games: await listGames(q, uid) }));
}
