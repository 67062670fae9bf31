import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { gameDetailTopic } from '@sagan/shared/topics/game-detail';
import { gameTopic } from '@sagan/shared/topics/game';
import { recentGamesTopic } from '@sagan/shared/topics/recent-games';
import { scorerTopics } from '../../lib/game-guard.ts';
import { changedTopics } from '../playcounts/public.ts';
import { teamAudienceOf } from '../teamsheets/public.ts';
import type { DeletedAccount } from './repo.ts';

/**
 * The topics an account's deletion touches: its team sheets' (as their own delete names them),
 * its play counts' (open shared links load null and close), and the late games'. Decided here,
 * never in the route or the repo.
 */
export function audienceOf(uid: string, gone: DeletedAccount): string[] {
  return [
    ...gone.teams.flatMap(teamAudienceOf),
    ...gone.playCounts.flatMap((c) => changedTopics(uid, c.gameKey, c.shareKey)),
    ...(gone.lateGames.length ? [recentGamesTopic.name()] : []),
    ...gone.lateGames.flatMap((k) => [gameTopic.name(k), gameDetailTopic.name(k)]),
  ];
}

/** The topics whose subscribers may lose the right to them: the counts' co-counters'. */
export function closedBy(gone: DeletedAccount): string[] {
  return gone.playCounts.flatMap((c) => [
    ...scorerTopics('playcount', c.gameKey),
    coscorersTopic.name('playcount', c.gameKey),
  ]);
}
