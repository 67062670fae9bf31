import { keySchema } from '@sagan/shared/keys';
import { API_PATH } from '@sagan/shared/http';
import { sha256 } from '../../lib/keys.ts';

/** Where photos were served before they got internal ids; such URLs are still recognised. */
const LEGACY_PHOTO_PREFIX = `${API_PATH}/photos/`;

/**
 * A photo's id is internal: nothing serves a file by its id. Every public or private URL names
 * a sheet (or play count) and a player, and is checked against their current state on each
 * request, so revoking a photo (unpublish, hide photos, delete the player) takes effect at once.
 * The `v` query only changes when the photo does, so a page shows a new photo without reload.
 */
const version = (photoId: string) => sha256(photoId).slice(0, 12);

export const ownerPhotoPath = (teamKey: string, playerKey: string, photoId: string) =>
  `${API_PATH}/teams/${teamKey}/players/${playerKey}/photo?v=${version(photoId)}`;

export const publicPhotoPath = (publishedAsKey: string, playerKey: string, photoId: string) =>
  `${API_PATH}/rosters/${publishedAsKey}/players/${playerKey}/photo?v=${version(photoId)}`;

const playCountPhotoPath = (gameKey: string, playerKey: string) =>
  `${API_PATH}/playcounts/${gameKey}/players/${playerKey}/photo`;

/** A shared play count's player photo, reached through its link (DESIGN §9 Photos). */
export const sharedPhotoPath = (shareKey: string, playerKey: string) =>
  `${API_PATH}/playcount-shares/${shareKey}/players/${playerKey}/photo`;

/** What a stored image URL points at, when it is one of ours (a relative path). */
export type PhotoRef =
  | { kind: 'team'; teamKey: string; playerKey: string }
  | { kind: 'roster'; publishedAsKey: string; playerKey: string }
  | { kind: 'playcount'; gameKey: string; playerKey: string }
  | { kind: 'legacy'; photoId: string };

const KEY = '([A-Za-z0-9_-]{1,64})';
const REF_PATTERNS: [RegExp, (m: RegExpExecArray) => PhotoRef][] = [
  [
    new RegExp(`^${API_PATH}/teams/${KEY}/players/${KEY}/photo$`),
    (m) => ({ kind: 'team', teamKey: m[1]!, playerKey: m[2]! }),
  ],
  [
    new RegExp(`^${API_PATH}/rosters/${KEY}/players/${KEY}/photo$`),
    (m) => ({ kind: 'roster', publishedAsKey: m[1]!, playerKey: m[2]! }),
  ],
  [
    new RegExp(`^${API_PATH}/playcounts/${KEY}/players/${KEY}/photo$`),
    (m) => ({ kind: 'playcount', gameKey: m[1]!, playerKey: m[2]! }),
  ],
  [
    new RegExp(`^${LEGACY_PHOTO_PREFIX}([A-Za-z0-9_-]{10,64})\\.jpg$`),
    (m) => ({ kind: 'legacy', photoId: m[1]! }),
  ],
];

export function parsePhotoRef(url: string | undefined): PhotoRef | null {
  if (!url?.startsWith(`${API_PATH}/`)) return null;
  const pathOnly = url.replace(/\?.*$/, '');
  for (const [re, make] of REF_PATTERNS) {
    const m = re.exec(pathOnly);
    if (m) return make(m);
  }
  return null;
}

/** The roster image URL a client should use: ours become the play count's own photo path. */
export function playCountImageUrl(gameKey: string, key: string, url: string | undefined) {
  if (!parsePhotoRef(url)) return url;
  return keySchema.safeParse(key).success ? playCountPhotoPath(gameKey, key) : '';
}
