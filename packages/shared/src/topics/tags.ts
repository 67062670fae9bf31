import { tagsTopicSchema } from '../scoreboard-views.ts';
import type { TopicFamily } from './define.ts';

/** tags: the tag lists of the dashboard. */
export const tagsTopic = {
  prefix: 'tags',
  name: () => 'tags',
  schema: tagsTopicSchema,
  private: false,
  coalesce: true,
} satisfies TopicFamily<[], typeof tagsTopicSchema>;
