import type { RedeemAnswer, ScoredKind } from '@sagan/shared/coscorers';
import type { Queryable } from '../../db/db.ts';
import { HttpError, notFound } from '../../lib/http-errors.ts';
import { findScored, isBound, lockInvite, lockOwner } from './repo.ts';

const NOT_FOUND = { game: 'No game with this key', playcount: 'Play count not found' } as const;
const WHAT = { game: 'game', playcount: 'play count' } as const;

/**
 * The owner of a game or a count, its row locked, or the refusal: a game answers 403 to
 * anyone else (the phone app must learn it is not the scorekeeper), a private play count 404
 * (its existence is not revealed). A co-scorer is anyone else here: inviting and revoking are
 * the owner's.
 */
export async function ownsScoredThing(
  q: Queryable,
  kind: ScoredKind,
  gameKey: string,
  uid: string,
): Promise<void> {
  const owner = await lockOwner(q, kind, gameKey);
  if (owner === uid) return;
  if (owner === null || kind === 'playcount') throw notFound(NOT_FOUND[kind]);
  throw new HttpError(403, "Only the game's owner can invite or remove co-scorers");
}

/** What redeeming a link does: bind it (`bind` names the invitation), or answer it again. */
export interface Redemption {
  answer: RedeemAnswer;
  bind: string | null;
}

/**
 * Who may redeem an invitation link. Once bound it is spent: another user gets 409; the same
 * user again (a retry after a lost answer) gets the same answer and binds nothing. An unknown
 * or expired link is 404; the owner's own link, or a second link to a game the user already
 * scores, is refused and stays unused for someone else.
 */
export async function mayRedeem(q: Queryable, token: string, uid: string): Promise<Redemption> {
  const invite = await lockInvite(q, token);
  if (!invite) throw notFound('This invitation link is not valid: ask for a new one');
  const { kind, gameKey } = invite;
  const thing = await findScored(q, kind, gameKey);
  const answer = { kind, gameKey, gameName: thing?.name ?? '' };
  if (invite.uid === uid) return { answer, bind: null };
  if (invite.uid !== null) {
    throw new HttpError(409, 'This invitation was already used by someone else');
  }
  if (invite.expiresAt <= Date.now() || !thing) {
    throw notFound('This invitation link has expired: ask for a new one');
  }
  if (thing.uid === uid) throw new HttpError(409, `This is your own ${WHAT[kind]}`);
  if (await isBound(q, kind, gameKey, uid)) {
    throw new HttpError(409, `You already score this ${WHAT[kind]}`);
  }
  return { answer, bind: invite.id };
}
