import type { z } from 'zod';

/**
 * One family of realtime topics (DESIGN §4), declared once for both ends: the server registers
 * its loader under `prefix` and bumps the names `name` builds; the web subscribes with `name`
 * and parses what arrives with `schema`. A topic's message is always its whole current state.
 *
 * Each family lives in a module of its own under `topics/`, with no index module, so a page
 * bundles only the schemas of the topics it reads.
 */
export interface TopicFamily<Args extends readonly string[], S extends z.ZodType> {
  /** The part before the first ':' of every name this family builds. */
  prefix: string;
  name: (...args: Args) => string;
  /** The state a subscriber receives (null where the thing the topic names does not exist). */
  schema: S;
  /**
   * Served to a signed-in user only (and, by the server's authorize, only to the right one):
   * refused, and dropped from open sockets, once the socket's session has ended.
   */
  private: boolean;
  /**
   * An aggregate fed by many writers (the recent games, the tag lists, a list of games): its
   * changes are coalesced, at most one frame per interval (DESIGN §9), numbered outside the
   * writers' transactions. A single game's topics are never coalesced: their viewers get every
   * change at once.
   */
  coalesce: boolean;
  /**
   * For a big state sent as deltas after the first frame (docs/decisions/0002, amended): how
   * the client applies one to the state it holds.
   */
  applyDelta?: (state: never, delta: never) => unknown;
}

/** What a family says of itself besides its name and schema. */
type Flags<S extends z.ZodType> = Pick<
  TopicFamily<readonly string[], S>,
  'private' | 'coalesce' | 'applyDelta'
>;

/** A family of one topic per thing, `{prefix}:{key}` (a game's, a tag's, a sheet's). */
export const keyedTopic = <S extends z.ZodType>(
  prefix: string,
  schema: S,
  flags: Flags<S>,
): TopicFamily<[key: string], S> => ({
  prefix,
  name: (key) => `${prefix}:${key}`,
  schema,
  ...flags,
});

/** A family of one topic, `name`, under the prefix before its first ':'. */
export const singleTopic = <S extends z.ZodType>(
  name: string,
  schema: S,
  flags: Flags<S>,
): TopicFamily<[], S> => ({
  prefix: name.split(':')[0]!,
  name: () => name,
  schema,
  ...flags,
});

/** What the server needs of a family: no schema, no name builder. */
export type TopicFamilyHead = Pick<
  TopicFamily<readonly string[], z.ZodType>,
  'prefix' | 'private' | 'coalesce'
>;

/** A per-user list, `user:{uid}:{list}`: a family of its own under the shared 'user' prefix. */
export interface UserListFamily<L extends string, S extends z.ZodType> extends TopicFamily<
  [uid: string],
  S
> {
  list: L;
}
