import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '@sagan/shared/auth';
import { keySchema } from '@sagan/shared/keys';
import { playCountTopic } from '@sagan/shared/topics/playcount';
import { myPlayCountsTopic } from '@sagan/shared/topics/user-playcounts';
import { findGame, listGames, ownerOf } from './repo.ts';

/** The topics a write to a user's game must bump, so open pages update live (DESIGN §4). */
export const changedTopics = (uid: string, gameKey: string) => [
  playCountTopic.name(gameKey),
  myPlayCountsTopic.name(uid),
];

export function registerPlayCountTopics(app: FastifyInstance): void {
  const { hub, db } = app;

  // Play counts are private (SPEC §6): only the owner may watch a game.
  hub.register({
    topic: playCountTopic,
    async authorize(user: SessionUser | null, gameKey: string) {
      if (!user || !keySchema.safeParse(gameKey).success) return false;
      return (await ownerOf(db, gameKey)) === user.uid;
    },
    load: (q, gameKey) => findGame(q, gameKey),
  });

  // user:{uid}:playcounts, to that uid only (the hub checks the uid).
  hub.registerUserList(myPlayCountsTopic, async (q, uid) => ({ games: await listGames(q, uid) }));
}
