import type { FastifyInstance } from 'fastify';
import { rosterTopic } from '@sagan/shared/topics/roster';
import { teamTopic } from '@sagan/shared/topics/team';
import { findTeam, isOwner, loadPublicRoster, loadSheet, type TeamChange } from './repo.ts';

/** DESIGN §4 topics: the owner's sheet (owner only) and the public copy (anyone). */
export function registerTeamsheetTopics(app: FastifyInstance): void {
  const { db, hub } = app;
  hub.register({
    topic: teamTopic,
    authorize: (user, teamKey) => (user ? isOwner(db, user.uid, teamKey) : false),
    async load(q, teamKey) {
      const team = await findTeam(q, teamKey);
      return team ? loadSheet(q, team) : null;
    },
  });
  // An open public sheet updates when the owner republishes or unpublishes (then null).
  hub.register({
    topic: rosterTopic,
    authorize: () => true,
    load: (q, publishedAsKey) => loadPublicRoster(q, publishedAsKey),
    keyedBy: { table: 'rosters', column: 'published_as_key' },
  });
}

/**
 * The topics a change to a team sheet touches: the owner's sheet, and its public copy when it
 * is published. Every team sheet write names its topics here, never in a route or the repo.
 */
export function audienceOf(change: TeamChange | null): string[] {
  if (!change) return [];
  return [
    teamTopic.name(change.teamKey),
    ...(change.publishedAsKey ? [rosterTopic.name(change.publishedAsKey)] : []),
  ];
}
