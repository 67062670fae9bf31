// What the play counts feature offers the other server features (a sheet's counts follow its
// privacy, a deleted account's counts leave their viewers, a count's photos are its owner's); the lint fence lets them import
// this file and none of the feature's others.
export { followSheetPrivacy, ownerOf as playCountOwner } from './repo.ts';
export { changedTopics, sharedViewsOfTeam } from './topics.ts';
