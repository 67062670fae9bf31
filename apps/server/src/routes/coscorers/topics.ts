import type { ScoredKind } from '@sagan/shared/coscorers';
import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { scorerTopics } from '../../lib/game-guard.ts';

/** What a co-scorers write changed, as far as who hears of it goes. */
export type CoscorerChange =
  /** An invitation made: the owner's open panel lists it. */
  | { kind: 'invited'; scored: ScoredKind; gameKey: string }
  /** A binding or an invitation gone; `uid` is whom it bound, if anyone. */
  | { kind: 'revoked'; scored: ScoredKind; gameKey: string; uid: string | null }
  /** An invitation redeemed by uid. */
  | { kind: 'redeemed'; scored: ScoredKind; gameKey: string; uid: string };

/** The topics a co-scorers write touches: decided here, never in a route or the repo. */
export function audienceOf(change: CoscorerChange): string[] {
  const panel = coscorersTopic.name(change.scored, change.gameKey);
  switch (change.kind) {
    case 'invited':
      return [panel];
    case 'revoked':
    case 'redeemed':
      return [panel, ...(change.uid ? [myScoringTopic.name(change.uid)] : [])];
  }
}

/** The topics a removed co-scorer's sockets lose at once: the scorers' topics of the thing. */
export function closedBy(change: CoscorerChange & { kind: 'revoked' }): string[] {
  return change.uid ? scorerTopics(change.scored, change.gameKey) : [];
}
