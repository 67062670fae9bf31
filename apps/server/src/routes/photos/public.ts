// What the photos feature offers the other server features (the team sheets' player saves,
// the play counts' rosters, account deletion, backups); the lint fence lets them import this
// file and none of the feature's others.
export { decodeDataUrl, MAX_PHOTO_BYTES, processPhoto } from './pipeline.ts';
export { photoStoreOf, type PhotoStore } from './store.ts';
export {
  ownerPhotoPath,
  parsePhotoRef,
  playCountImageUrl,
  publicPhotoPath,
  sharedPhotoPath,
} from './urls.ts';
