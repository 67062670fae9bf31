// What the team sheets feature offers the other server features; the lint fence lets them
// import this file and none of the feature's others.
export { deleteTeam } from './repo.ts';
export { ownedTeam } from './policy.ts';
export { audienceOf as teamAudienceOf } from './topics.ts';
