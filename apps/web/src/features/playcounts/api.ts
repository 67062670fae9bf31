import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  playCountGameSchema,
  type PlayCountGame,
  type PlayCountListItem,
  type PlayCountPatch,
} from '@sagan/shared/playcount';
import { playCountTopic } from '@sagan/shared/topics/playcount';
import { myPlayCountsTopic } from '@sagan/shared/topics/user-playcounts';
import { teamTopic } from '@sagan/shared/topics/team';
import { teamsListSchema } from '@sagan/shared/teamsheet-schemas';
import { shareResultSchema, type NewPlayCount } from '@sagan/shared/playcount-sideline';
import { seasonSchema } from '@sagan/shared/playcount-season';
import type { SessionUser } from '@sagan/shared/auth';
import { api } from '../../lib/api.ts';
import { useLive, useLiveWrite } from '../../lib/realtime.ts';
import { writeOnce } from '../../lib/outbox.ts';
import { newId } from '../../lib/new-id.ts';
import { useKept } from '../../lib/kept.ts';

const path = (gameKey: string) => `/playcounts/${encodeURIComponent(gameKey)}`;

export interface LiveResult<T> {
  data: T | undefined;
  loading: boolean;
  error: string | undefined;
  notFound: boolean;
  /** The topic's sequence number of `data`. */
  seq?: number;
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
  const { loading, error, seq } = live;
  // Kept per user on the device: opened offline, the count shows as it was last seen and the
  // counter queues snaps on it until the topic is back.
  const kept = useKept(
    `playcount:${gameKey}`,
    live.data && seq !== undefined ? { game: live.data, seq } : null,
    seq,
    parseKeptCount,
  );
  if (live.data || notFound || !kept) {
    return {
      data: live.data ?? undefined,
      loading: loading || kept === undefined,
      error,
      notFound,
      seq,
    };
  }
  return { data: kept.game, loading: false, error: undefined, notFound: false, seq: kept.seq };
}

function parseKeptCount(value: unknown): { game: PlayCountGame; seq: number } | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as { game?: unknown; seq?: unknown };
  const game = playCountGameSchema.safeParse(v.game);
  return game.success && typeof v.seq === 'number' ? { game: game.data, seq: v.seq } : null;
}

/** Archive/Restore (SPEC §4) and the coach's minimum plays. */
export function usePatchPlayCount(gameKey: string) {
  const live = useLiveWrite(playCountTopic, gameKey);
  return useMutation({
    mutationFn: (patch: PlayCountPatch) =>
      live(() => api('PATCH', path(gameKey), patch, playCountGameSchema)),
  });
}

/** The user's team sheets, to start a count from (the same list the Team Sheets screen reads). */
export function useMyTeams(enabled: boolean) {
  return useQuery({
    queryKey: ['playcounts', 'teams'],
    queryFn: () => api('GET', '/teams', undefined, teamsListSchema),
    enabled,
  });
}

/** A team sheet's groups and lineups, live, for loading a lineup onto the field. */
export const useTeamSheet = (teamKey: string | null) => useLive(teamTopic, teamKey);

/**
 * Starts a count. The key is made when the form opens, so a double submit (or a retry after a
 * lost answer) makes one count.
 */
export function useStartPlayCount() {
  const [key] = useState(newId);
  return useMutation({
    mutationFn: (input: NewPlayCount) =>
      writeOnce<{ gameKey: string }>({ method: 'POST', path: '/playcounts', body: input }, key),
  });
}

/** The read-only link: share (the same key until revoked) or revoke. */
export function useShare(gameKey: string) {
  const live = useLiveWrite(playCountTopic, gameKey);
  return useMutation({
    mutationFn: (on: boolean) =>
      live(() =>
        on
          ? api('PUT', `${path(gameKey)}/share`, undefined, shareResultSchema)
          : api('DELETE', `${path(gameKey)}/share`),
      ),
  });
}

/** A team's season: plays per player over its counts (REST: no topic serves a sum). */
export function useSeason(teamKey: string) {
  return useQuery({
    queryKey: ['playcounts', 'season', teamKey],
    queryFn: () =>
      api('GET', `/playcount-seasons/${encodeURIComponent(teamKey)}`, undefined, seasonSchema),
  });
}
