import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CoscorerList, Invite, RedeemAnswer, ScoredKind } from '@sagan/shared/coscorers';
import { api } from '../../lib/api.ts';

const enc = encodeURIComponent;
const base = (kind: ScoredKind, gameKey: string) =>
  `/${kind === 'game' ? 'games' : 'playcounts'}/${enc(gameKey)}/coscorers`;
const listKey = (kind: ScoredKind, gameKey: string) => ['coscorers', kind, gameKey];

/** The owner's list of co-scorers; read again each time the panel opens. */
export function useCoscorers(kind: ScoredKind, gameKey: string) {
  return useQuery({
    queryKey: listKey(kind, gameKey),
    queryFn: () => api<CoscorerList>('GET', base(kind, gameKey)),
    staleTime: 0,
  });
}

export function useInvite(kind: ScoredKind, gameKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<Invite>('POST', base(kind, gameKey)),
    onSuccess: () => client.invalidateQueries({ queryKey: listKey(kind, gameKey) }),
  });
}

export function useRevoke(kind: ScoredKind, gameKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('DELETE', `${base(kind, gameKey)}/${enc(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: listKey(kind, gameKey) }),
  });
}

export function useRedeem() {
  return useMutation({
    mutationFn: (token: string) => api<RedeemAnswer>('POST', '/coscorers/redeem', { token }),
  });
}
