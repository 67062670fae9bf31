import { publicRosterSchema } from '../teamsheet-schemas.ts';
import { keyedTopic } from './define.ts';

/** roster:{publishedAsKey}: a published team sheet, to anyone; null once unpublished. */
export const rosterTopic = keyedTopic('roster', publicRosterSchema.nullable(), {
  private: false,
  coalesce: false,
});
