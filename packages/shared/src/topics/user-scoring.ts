import { scoringListSchema } from '../coscorers.ts';
import { userListTopic } from './user.ts';

/**
 * user:{uid}:scoring: the games and play counts the user co-scores. A scorer's open screen
 * watches it, so a revocation closes that screen with a plain message.
 */
export const myScoringTopic = userListTopic('scoring', scoringListSchema, { coalesce: false });
