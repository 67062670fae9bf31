import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '@sagan/shared/auth';
import { keySchema } from '@sagan/shared/keys';
import { topics } from '@sagan/shared/realtime';
import { findGame, listGames, ownerOf } from './repo.ts';

export const USER_LIST = 'playcounts';

/** The topics a write to a user's game must bump, so open pages update live (DESIGN §4). */
export const changedTopics = (uid: string, gameKey: string) => [
  topics.playcount(gameKey),
  topics.user(uid, USER_LIST),
];

export function registerPlayCountTopics(app: FastifyInstance): void {
  const { hub, db } = app;

  // Play counts are private (SPEC §6): only the owner may watch a game.
  hub.register({
    prefix: 'playcount',
    private: true,
    async authorize(user: SessionUser | null, gameKey: string) {
      if (!user || !keySchema.safeParse(gameKey).success) return false;
      return (await ownerOf(db, gameKey)) === user.uid;
    },
    load: (q, gameKey) => findGame(q, gameKey),
  });

  // user:{uid}:playcounts, to that uid only (the hub checks the uid).
  hub.registerUserList(USER_LIST, async (q, uid) => ({ games: await listGames(q, uid) }));
}
