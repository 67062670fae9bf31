import { tagTopicSchema } from '../scoreboard-views.ts';
import { keyedTopic } from './define.ts';

/** tag:{tagKey}: one tag and its games; null when there is no such tag. */
export const tagTopic = keyedTopic('tag', tagTopicSchema, { private: false, coalesce: true });
