// The published team sheet's topic as the public team sheet and player pages read it: the shared
// family (packages/shared/src/topics/roster.ts) with its schema read by a shape, so those fan
// pages load no zod. viewer-topics.test.ts holds it to the shared family, shape.test.ts the
// reader to the schema.
import type { rosterTopic as RosterFamily } from '@sagan/shared/topics/roster';
import { reader, type Viewed } from './shape.ts';
import * as shapes from './roster-shapes.ts';

export const rosterTopic: Viewed<typeof RosterFamily> = {
  prefix: 'roster',
  name: (publishedAsKey: string) => `roster:${publishedAsKey}`,
  schema: reader(shapes.rosterTopic),
  private: false,
  coalesce: false,
};
