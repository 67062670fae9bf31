import type { SessionUser } from '@sagan/shared/auth';
import type { Queryable } from '../../db/db.ts';
import { roleOn } from '../../lib/game-guard.ts';
import { playCountOwner } from '../playcounts/public.ts';
import { parsePhotoRef, type PhotoRef } from './urls.ts';
import {
  ownerPhotoId,
  ownPhotoId,
  ownPublishedPlayer,
  playCountImageUrlOf,
  publishedPhotoId,
  sharedCountShowingPhotos,
} from './repo.ts';

// Who may see a photo: each answer is the photo's id, or null for "no such photo" (the
// route answers 404 alike for a photo that is not there and one the asker may not see, so a
// revocation is final and nothing is revealed). Changing a photo is a team sheet's write,
// guarded by the sheet's owner check (teamsheets/policy.ts).

/** The sheet's owner sees their players' photos. */
export const photoForSheetOwner = (
  q: Queryable,
  user: SessionUser,
  teamKey: string,
  playerKey: string,
) => ownerPhotoId(q, user.uid, teamKey, playerKey);

/** Anyone sees the photos a published sheet shows, while it shows them. */
export const photoOnPublishedSheet = publishedPhotoId;

/**
 * The photo a stored image URL stands for, seen by uid: their own sheets' players, a published
 * sheet's players under its public rules, their own photos by a pre-migration URL.
 */
async function photoOfRef(q: Queryable, uid: string, ref: PhotoRef | null): Promise<string | null> {
  switch (ref?.kind) {
    case 'team':
      return ownerPhotoId(q, uid, ref.teamKey, ref.playerKey);
    case 'roster': {
      const own = await ownPublishedPlayer(q, uid, ref.publishedAsKey, ref.playerKey);
      if (own) return own.photoId;
      return publishedPhotoId(q, ref.publishedAsKey, ref.playerKey);
    }
    case 'legacy':
      return ownPhotoId(q, uid, ref.photoId);
    default:
      // A play count's own URL is never stored (the PUT keeps what it stood for).
      return null;
  }
}

/**
 * The photo of a play count's player as its owner sees it: the image URL stored in its
 * roster, resolved with the owner's rights.
 */
async function playCountPhotoAsOwner(
  q: Queryable,
  ownerUid: string,
  gameKey: string,
  playerKey: string,
): Promise<string | null> {
  const url = await playCountImageUrlOf(q, ownerUid, gameKey, playerKey);
  return photoOfRef(q, ownerUid, parsePhotoRef(url ?? undefined));
}

/** A play count's owner and its co-scorers see its players' photos, through the owner's eyes. */
export async function photoForPlayCountScorer(
  q: Queryable,
  user: SessionUser,
  gameKey: string,
  playerKey: string,
): Promise<string | null> {
  const owner = await playCountOwner(q, gameKey);
  if (!owner || !(await roleOn(q, 'playcount', gameKey, owner, user.uid))) return null;
  return playCountPhotoAsOwner(q, owner, gameKey, playerKey);
}

/** Whoever holds a shared play count's link sees its photos, unless its privacy hides them. */
export async function photoThroughShare(
  q: Queryable,
  shareKey: string,
  playerKey: string,
): Promise<string | null> {
  const shared = await sharedCountShowingPhotos(q, shareKey);
  return shared ? playCountPhotoAsOwner(q, shared.uid, shared.gameKey, playerKey) : null;
}
