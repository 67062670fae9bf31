import { tagTopicSchema } from '../scoreboard-views.ts';
import type { TopicFamily } from './define.ts';

/** tag:{tagKey}: one tag and its games; null when there is no such tag. */
export const tagTopic = {
  prefix: 'tag',
  name: (tagKey: string) => `tag:${tagKey}`,
  schema: tagTopicSchema,
  private: false,
  coalesce: true,
} satisfies TopicFamily<[tagKey: string], typeof tagTopicSchema>;
