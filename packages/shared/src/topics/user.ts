import type { z } from 'zod';
import type { TopicFamilyHead, UserListFamily } from './define.ts';

/**
 * The per-user lists the server serves as `user:{uid}:{list}`, each to that uid only. A new
 * list is named here, declared in a `user-{list}.ts` module of its own and registered by the
 * feature that loads it; naming a list nothing serves does not compile.
 */
export type UserList =
  'games' | 'favorites' | 'followedTags' | 'playcounts' | 'scoring' | 'notices';

/** Each list says whether it is coalesced; the head's own flag is never read. */
export const userTopicFamily = {
  prefix: 'user',
  private: true,
  coalesce: false,
} satisfies TopicFamilyHead;

export const userTopicName = (uid: string, list: UserList) => `user:${uid}:${list}`;

/** The family of one per-user list. */
export const userListTopic = <L extends UserList, S extends z.ZodType>(
  list: L,
  schema: S,
  { coalesce }: { coalesce: boolean },
): UserListFamily<L, S> => ({
  ...userTopicFamily,
  list,
  name: (uid) => userTopicName(uid, list),
  coalesce,
  schema,
});
