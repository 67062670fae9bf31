import type { GameCommentInput } from '@sagan/shared/scoreboard';
import { gameTopic } from '@sagan/shared/topics/game';
import { notFound } from '../../lib/http-errors.ts';
import type { Change } from '../../lib/write.ts';
import { ownedGame } from './policy.ts';
import { insertComment, replaceTags, setMessageRead } from './repo.ts';
import { audienceOf } from './topics.ts';

// The owner's writes around a game that are not its event log's, each a Change for the one
// write helper (lib/write.ts): the routes send them under the request's Idempotency-Key, the
// demo seed and simulator without one, so both take the same path.

type OwnerChange<T> = Change<unknown, T>;

/** Adds a comment; answers its id and the game topic's seq. */
export function commentChange(
  uid: string,
  gameKey: string,
  comment: GameCommentInput,
): OwnerChange<{ id: string; seq: number }> {
  return {
    guard: (q) => ownedGame(q, uid, gameKey),
    write: async (q) => {
      const id = await insertComment(q, gameKey, comment);
      return {
        touched: audienceOf({ kind: 'comment', gameKey }),
        answerAt: (seqs) => ({ id, seq: seqs[gameTopic.name(gameKey)]! }),
      };
    },
  };
}

/** Replaces the game's tags; answers them and the game topic's seq. */
export function tagsChange(
  uid: string,
  gameKey: string,
  names: string[],
): OwnerChange<{ tags: { key: string; name: string }[]; seq: number }> {
  return {
    guard: (q) => ownedGame(q, uid, gameKey),
    write: async (q) => {
      const { tags, touched, followers } = await replaceTags(q, gameKey, names);
      return {
        touched: audienceOf({ kind: 'tags', gameKey, tagKeys: touched, followers }),
        answerAt: (seqs) => ({ tags, seq: seqs[gameTopic.name(gameKey)]! }),
      };
    },
  };
}

/** Marks a message to the scorekeeper read, or unread again (no topic carries messages). */
export function messageReadChange(
  uid: string,
  gameKey: string,
  messageId: string,
  read: boolean,
): OwnerChange<{ id: string; read: boolean }> {
  return {
    guard: (q) => ownedGame(q, uid, gameKey),
    write: async (q) => {
      if (!(await setMessageRead(q, gameKey, messageId, read))) {
        throw notFound('No message with this id');
      }
      return { touched: [], answer: { id: messageId, read } };
    },
  };
}
