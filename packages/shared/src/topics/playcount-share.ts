import { sharedPlayCountSchema } from '../playcount-sideline.ts';
import { applyPlayCountDelta } from '../playcount-delta.ts';
import { keyedTopic } from './define.ts';

/**
 * playcountshare:{shareKey}: a play count as its shared link shows it, to whoever holds the
 * link (the key is unguessable). Null once the owner revokes the link, which closes open views.
 */
export const playCountShareTopic = keyedTopic('playcountshare', sharedPlayCountSchema.nullable(), {
  private: false,
  coalesce: false,
  // After the first frame, what each write changed (docs/decisions/0002, amended).
  applyDelta: applyPlayCountDelta,
});
