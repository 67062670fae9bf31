import { coscorerListSchema, type ScoredKind } from '../coscorers.ts';
import type { TopicFamily } from './define.ts';

export const coscorersTopicSchema = coscorerListSchema.nullable();

/**
 * coscorers:{kind}:{gameKey}: the owner's list of who co-scores a game (kind 'game') or counts
 * a play count ('playcount'), and the links nobody used yet, live while the owner's panel is
 * open; to the owner only, null when there is no such game or count.
 */
export const coscorersTopic = {
  prefix: 'coscorers',
  name: (kind: ScoredKind, gameKey: string) => `coscorers:${kind}:${gameKey}`,
  schema: coscorersTopicSchema,
  private: true,
  coalesce: false,
} satisfies TopicFamily<[kind: ScoredKind, gameKey: string], typeof coscorersTopicSchema>;
