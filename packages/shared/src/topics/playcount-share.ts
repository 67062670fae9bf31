import { sharedPlayCountSchema } from '../playcount-sideline.ts';
import { applyPlayCountDelta } from '../playcount-events.ts';
import type { TopicFamily } from './define.ts';

/**
 * playcountshare:{shareKey}: a play count as its shared link shows it, to whoever holds the
 * link (the key is unguessable). Null once the owner revokes the link, which closes open views.
 */
export const playCountShareTopic = {
  prefix: 'playcountshare',
  name: (shareKey: string) => `playcountshare:${shareKey}`,
  schema: sharedPlayCountSchema.nullable(),
  private: false,
  coalesce: false,
  // After the first frame, what each write changed (docs/decisions/0002, amended).
  applyDelta: applyPlayCountDelta,
} satisfies TopicFamily<[shareKey: string], ReturnType<typeof sharedPlayCountSchema.nullable>>;
