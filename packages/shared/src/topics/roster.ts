import { publicRosterSchema } from '../teamsheet-schemas.ts';
import type { TopicFamily } from './define.ts';

/** roster:{publishedAsKey}: a published team sheet, to anyone; null once unpublished. */
export const rosterTopic = {
  prefix: 'roster',
  name: (publishedAsKey: string) => `roster:${publishedAsKey}`,
  schema: publicRosterSchema.nullable(),
  private: false,
  coalesce: false,
} satisfies TopicFamily<[publishedAsKey: string], ReturnType<typeof publicRosterSchema.nullable>>;
