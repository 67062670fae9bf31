import { tagsTopicSchema } from '../scoreboard-views.ts';
import { singleTopic } from './define.ts';

/** tags: the tag lists of the dashboard. */
export const tagsTopic = singleTopic('tags', tagsTopicSchema, { private: false, coalesce: true });
