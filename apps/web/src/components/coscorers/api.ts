import { useMutation } from '@tanstack/react-query';
import type { Invite, RedeemAnswer, ScoredKind } from '@sagan/shared/coscorers';
import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { api } from '../../lib/api.ts';
import { useLive, useLiveWrite } from '../../lib/realtime.ts';

const enc = encodeURIComponent;
const base = (kind: ScoredKind, gameKey: string) =>
  `/${kind === 'game' ? 'games' : 'playcounts'}/${enc(gameKey)}/coscorers`;
/**
 * The owner's list of co-scorers, live: someone redeeming a link shows up on the open panel
 * without a reload.
 */
export function useCoscorers(kind: ScoredKind, gameKey: string) {
  return useLive(coscorersTopic, kind, gameKey);
}

/** A write to the list settles once the live list shows it. */
export function useInvite(kind: ScoredKind, gameKey: string) {
  const live = useLiveWrite(coscorersTopic, kind, gameKey);
  return useMutation({
    mutationFn: () => live(() => api<Invite>('POST', base(kind, gameKey))),
  });
}

export function useRevoke(kind: ScoredKind, gameKey: string) {
  const live = useLiveWrite(coscorersTopic, kind, gameKey);
  return useMutation({
    mutationFn: (id: string) => live(() => api('DELETE', `${base(kind, gameKey)}/${enc(id)}`)),
  });
}

export function useRedeem() {
  return useMutation({
    mutationFn: (token: string) => api<RedeemAnswer>('POST', '/coscorers/redeem', { token }),
  });
}
