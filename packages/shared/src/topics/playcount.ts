import { playCountGameSchema } from '../playcount.ts';
import { applyPlayCountDelta } from '../playcount-delta.ts';
import { keyedTopic } from './define.ts';

/** playcount:{gameKey}: one play-count game, to its owner only (SPEC §6). */
export const playCountTopic = keyedTopic('playcount', playCountGameSchema.nullable(), {
  private: true,
  coalesce: false,
  // After the first frame, what each write changed (docs/decisions/0002, amended).
  applyDelta: applyPlayCountDelta,
});
