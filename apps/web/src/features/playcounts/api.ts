import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  playCountGameSchema,
  playCountListSchema,
  type PlayCountGame,
  type PlayCountListItem,
  type PlayCountPatch,
} from '@sagan/shared/playcount';
import { topics } from '@sagan/shared/realtime';
import type { SessionUser } from '@sagan/shared/auth';
import { api, ApiError } from '../../lib/api.ts';
import { useTopic } from '../../lib/realtime.ts';

const listKey = ['playcounts'] as const;
const gameKeyOf = (gameKey: string) => ['playcounts', gameKey] as const;
const path = (gameKey: string) => `/playcounts/${encodeURIComponent(gameKey)}`;

const newer = (a: PlayCountGame | undefined, b: PlayCountGame | undefined) =>
  !a ? b : !b ? a : a.updatedAt >= b.updatedAt ? a : b;

export interface LiveResult<T> {
  data: T | undefined;
  loading: boolean;
  error: Error | null;
  notFound: boolean;
}

/**
 * SPEC §2 Play counts list, live: the first answer comes from the API, then the
 * user:{uid}:playcounts topic keeps it current while Player Counter writes (DESIGN §4).
 */
export function useMyPlayCounts(user: SessionUser | null): LiveResult<PlayCountListItem[]> {
  const query = useQuery({
    queryKey: listKey,
    queryFn: () => api('GET', '/playcounts', undefined, playCountListSchema),
    enabled: !!user,
  });
  const live = useTopic(user ? topics.user(user.uid, 'playcounts') : null, playCountListSchema);
  const data = live.data?.games ?? query.data?.games;
  return {
    data,
    loading: !data && query.isPending,
    error: data ? null : query.error,
    notFound: false,
  };
}

/** SPEC §2 Play count detail: the newer of the API's answer and the live topic's state. */
export function usePlayCount(gameKey: string): LiveResult<PlayCountGame> {
  const query = useQuery({
    queryKey: gameKeyOf(gameKey),
    queryFn: () => api('GET', path(gameKey), undefined, playCountGameSchema),
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 1,
  });
  const live = useTopic(topics.playcount(gameKey), playCountGameSchema);
  const data = newer(live.data, query.data);
  const status = query.error instanceof ApiError ? query.error.status : 0;
  return {
    data,
    loading: !data && query.isPending,
    error: data ? null : query.error,
    notFound: !data && (status === 404 || status === 403),
  };
}

/** Archive/Restore (SPEC §4) and the coach's minimum plays. */
export function usePatchPlayCount(gameKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: PlayCountPatch) => api('PATCH', path(gameKey), patch, playCountGameSchema),
    onSuccess: (game) => {
      queryClient.setQueryData(gameKeyOf(gameKey), game);
      void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    },
  });
}
