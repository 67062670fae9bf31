import { teamSheetSchema } from '../teamsheet-schemas.ts';
import type { TopicFamily } from './define.ts';

/** team:{teamKey}: the owner's whole team sheet, to its owner only; null once it is gone. */
export const teamTopic = {
  prefix: 'team',
  name: (teamKey: string) => `team:${teamKey}`,
  schema: teamSheetSchema.nullable(),
  private: true,
  coalesce: false,
} satisfies TopicFamily<[teamKey: string], ReturnType<typeof teamSheetSchema.nullable>>;
