import { useMutation } from '@tanstack/react-query';
import {
  playCountGameSchema,
  type PlayCountGame,
  type PlayCountListItem,
  type PlayCountPatch,
} from '@sagan/shared/playcount';
import { playCountTopic } from '@sagan/shared/topics/playcount';
import { myPlayCountsTopic } from '@sagan/shared/topics/user-playcounts';
import type { SessionUser } from '@sagan/shared/auth';
import { api } from '../../lib/api.ts';
import { useLive, useLiveWrite } from '../../lib/realtime.ts';

const path = (gameKey: string) => `/playcounts/${encodeURIComponent(gameKey)}`;

export interface LiveResult<T> {
  data: T | undefined;
  loading: boolean;
  error: string | undefined;
  notFound: boolean;
}

/**
 * SPEC §2 Play counts list, live from the user:{uid}:playcounts topic, which sends the list on
 * subscribe and again whenever Player Counter writes (DESIGN §4).
 */
export function useMyPlayCounts(user: SessionUser | null): LiveResult<PlayCountListItem[]> {
  const live = useLive(myPlayCountsTopic, user?.uid ?? null);
  return { ...live, data: live.data?.games, notFound: false };
}

/**
 * SPEC §2 Play count detail, live from the playcount:{gameKey} topic. The server refuses the
 * topic to anyone but the game's owner, and to them when there is no such game: not found.
 */
export function usePlayCount(gameKey: string): LiveResult<PlayCountGame> {
  const live = useLive(playCountTopic, gameKey);
  const notFound = live.data === null || live.error !== undefined;
  return { data: live.data ?? undefined, loading: live.loading, error: live.error, notFound };
}

/** Archive/Restore (SPEC §4) and the coach's minimum plays. */
export function usePatchPlayCount(gameKey: string) {
  const live = useLiveWrite(playCountTopic, gameKey);
  return useMutation({
    mutationFn: (patch: PlayCountPatch) =>
      live(() => api('PATCH', path(gameKey), patch, playCountGameSchema)),
  });
}
