// What the scoreboards feature offers the other server features; the lint fence lets them
// import this file and none of the feature's others.
export {
  findPublicComment,
  findPublicGame,
  gameAudienceTopics,
  seesHiddenGame,
  tagAudienceTopics,
} from './repo.ts';
export { deleteGameChange } from './writes.ts';
export { followSheetPrivacyOnGames, followSheetPublishedOnGames } from './sheet-repo.ts';
