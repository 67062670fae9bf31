import type { SharedPlayCount } from '@sagan/shared/playcount-sideline';
import { playCountShareTopic } from '../../lib/playcount-share-topic.ts';
import { useLive } from '../../lib/realtime.ts';
import type { LiveResult } from './api.ts';

// Apart from api.ts, whose owner's hooks load TanStack Query and the outbox: a parent opening
// the link loads neither.
/** The parents' view of a shared link, live; null once the coach revokes it. */
export function useSharedPlayCount(shareKey: string): LiveResult<SharedPlayCount> {
  const live = useLive(playCountShareTopic, shareKey);
  const notFound = live.data === null || live.error !== undefined;
  return { data: live.data ?? undefined, loading: live.loading, error: live.error, notFound };
}
