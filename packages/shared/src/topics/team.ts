import { teamSheetSchema } from '../teamsheet-schemas.ts';
import { keyedTopic } from './define.ts';

/** team:{teamKey}: the owner's whole team sheet, to its owner only; null once it is gone. */
export const teamTopic = keyedTopic('team', teamSheetSchema.nullable(), {
  private: true,
  coalesce: false,
});
