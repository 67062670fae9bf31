import {
  applyClockControl,
  formatClock,
  type ClockControl,
  type GameClockState,
} from '@sagan/shared/game-clock';
import {
  type Clock,
  defaultScoreboard,
  type GameCommentInput,
  type ScoreboardPatch,
} from '@sagan/shared/scoreboard';
import { clockTopic } from '@sagan/shared/topics/clock';
import { gameTopic } from '@sagan/shared/topics/game';
import { notFound } from '../../lib/http-errors.ts';
import type { Change } from '../../lib/write.ts';
import { mayCreateGames, ownedGame, scoredClock } from './policy.ts';
import {
  deleteGameRow,
  insertComment,
  insertGame,
  replaceTags,
  saveClock,
  setMessageRead,
} from './repo.ts';
import { audienceOf, closedBy } from './topics.ts';

// The owner's writes around a game that are not its event log's, each a Change for the one
// write helper (lib/write.ts): the routes send them under the request's Idempotency-Key, the
// demo seed and simulator without one, so both take the same path.

type OwnerChange<T> = Change<unknown, T>;

/** Creates a game of uid's, with these first scoreboard fields; answers its key. */
export function createGameChange(
  uid: string,
  initial: ScoreboardPatch = {},
): OwnerChange<{ gameKey: string }> {
  return {
    guard: (q) => mayCreateGames(q, uid),
    write: async (q) => {
      const fields = { ...defaultScoreboard, ...initial };
      const gameKey = await insertGame(q, uid, fields);
      const scheduled = fields.startsAt !== undefined;
      return {
        touched: audienceOf({ kind: 'created', ownerUid: uid, scheduled }),
        answer: { gameKey },
      };
    },
  };
}

/**
 * Deletes the owner's game with everything hanging off it. Its viewers get null (the
 * not-found screen), the lists and tag counts that showed it follow, and its scorers' sockets
 * lose its scorers' topics.
 */
export function deleteGameChange(uid: string, gameKey: string): OwnerChange<{ ok: true }> {
  return {
    guard: (q) => ownedGame(q, uid, gameKey),
    write: async (q) => {
      const gone = await deleteGameRow(q, gameKey);
      // Deleted by another request since the guard read it.
      if (!gone) throw notFound('No game with this key');
      const change = { kind: 'deleted' as const, gameKey, ...gone };
      return {
        touched: audienceOf(change),
        revoked: { topics: closedBy(change) },
        answer: { ok: true },
      };
    },
  };
}

/**
 * Moves a game's clock from its state to what `next` makes of it: the whole new state rides
 * in the notification, so no node reads the clock back. Ticks reach only the clock topic: they
 * do not reorder the recent games list.
 */
function clockChange<T>(
  uid: string,
  gameKey: string,
  next: (
    state: GameClockState,
    serverTime: number,
  ) => { state: GameClockState; formattedTime: string },
  answer: (state: GameClockState, seq: number, serverTime: number) => T,
): Change<GameClockState, T> {
  return {
    guard: (q) => scoredClock(q, uid, gameKey),
    write: async (q, current) => {
      const serverTime = Date.now();
      const { state, formattedTime } = next(current, serverTime);
      const payload = await saveClock(q, gameKey, state, formattedTime);
      const topic = clockTopic.name(gameKey);
      return {
        touched: audienceOf({ kind: 'clock', gameKey }),
        merges: { [topic]: payload },
        answerAt: (seqs) => answer(state, seqs[topic]!, serverTime),
      };
    },
  };
}

/** The phone apps' clock tick (DESIGN §6): a stopped clock at the phone's seconds and text. */
export function clockTickChange(uid: string, gameKey: string, clock: Clock) {
  return clockChange(
    uid,
    gameKey,
    (state) => ({
      state: { ...state, running: false, startedAt: null, seconds: clock.seconds },
      formattedTime: clock.formattedTime,
    }),
    (_state, seq) => ({ ok: true as const, seq }),
  );
}

/** The scorekeeper's start, stop and set (DESIGN §9), at the server's time. */
export function clockControlChange(uid: string, gameKey: string, control: ClockControl) {
  return clockChange(
    uid,
    gameKey,
    (state, serverTime) => {
      const clock = applyClockControl(state, control, serverTime);
      return { state: clock, formattedTime: formatClock(clock.seconds) };
    },
    (clock, seq, serverTime) => ({ clock, serverTime, seq }),
  );
}

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
