// What the shell reads on every page, and what list pages read, with shapes instead of zod
// schemas (shape.ts, viewer-topics.ts); viewer-topics.test.ts holds the topic to its shared family.
import type { myNoticesTopic as NoticesFamily } from '@sagan/shared/topics/user-notices';
import { reader, userListViewed, type Viewed } from './shape.ts';
import * as shapes from './shapes.ts';

/** user:{uid}:notices: an owner's notices that an operator hid or restored a game. */
export const myNoticesTopic: Viewed<typeof NoticesFamily> = userListViewed(
  'notices',
  shapes.myNoticesTopic,
  { coalesce: false },
);

/** A key in a page's URL (a game's, a tag's), read as the shared keySchema does. */
export const keyReader = reader<string>(shapes.key);
