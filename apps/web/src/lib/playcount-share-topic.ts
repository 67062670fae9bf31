// A play count's shared link as the parents' page reads it: the shared family
// (packages/shared/src/topics/playcount-share.ts) with its schema read by a shape, so the page
// loads no zod. viewer-topics.test.ts holds it to the shared family, shape.test.ts the reader to
// the schema.
import type { playCountShareTopic as PlayCountShareFamily } from '@sagan/shared/topics/playcount-share';
import { applyPlayCountDelta } from '@sagan/shared/playcount-delta';
import { keyedViewed, type Viewed } from './shape.ts';
import * as shapes from './playcount-shapes.ts';

export const playCountShareTopic: Viewed<typeof PlayCountShareFamily> = {
  ...keyedViewed('playcountshare', shapes.playCountShareTopic, {
    private: false,
    coalesce: false,
  }),
  applyDelta: applyPlayCountDelta,
};
