import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  bulkResultSchema,
  groupSchema,
  membershipSchema,
  playerSchema,
  publicRosterResponseSchema,
  publishResultSchema,
  teamSheetSchema,
  teamsListSchema,
  teamSummarySchema,
  type TeamSheet,
} from '@sagan/shared/teamsheet-schemas';
import type { PlayerInput } from '@sagan/shared/teamsheet';
import { API_PATH, okSchema } from '@sagan/shared/http';
import { api } from '../../lib/api.ts';

const enc = encodeURIComponent;

export const teamsKey = ['teamsheets', 'list'] as const;
export const teamKey = (key: string) => ['teamsheets', 'team', key] as const;
export const rosterKey = (key: string) => ['teamsheets', 'roster', key] as const;

export function qrSrc(publishedAsKey: string): string {
  return `${API_PATH}/rosters/${enc(publishedAsKey)}/qr.png`;
}

export function useTeams(enabled: boolean) {
  return useQuery({
    queryKey: teamsKey,
    queryFn: () => api('GET', '/teams', undefined, teamsListSchema),
    enabled,
  });
}

export function useTeam(key: string) {
  return useQuery({
    queryKey: teamKey(key),
    queryFn: () => api('GET', `/teams/${enc(key)}`, undefined, teamSheetSchema),
    retry: false,
  });
}

export function useRoster(key: string) {
  return useQuery({
    queryKey: rosterKey(key),
    queryFn: () => api('GET', `/rosters/${enc(key)}`, undefined, publicRosterResponseSchema),
    retry: false,
  });
}

/** After a change to one team: its sheet and the list reload. */
function useTeamChanged(key: string) {
  const qc = useQueryClient();
  return (sheet?: TeamSheet) => {
    if (sheet) qc.setQueryData(teamKey(key), sheet);
    else void qc.invalidateQueries({ queryKey: teamKey(key) });
    void qc.invalidateQueries({ queryKey: teamsKey });
  };
}

export function useCreateTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('POST', '/teams', undefined, teamSummarySchema),
    onSuccess: () => qc.invalidateQueries({ queryKey: teamsKey }),
  });
}

export function useSaveTeam(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: (input: { teamName: string; teamNotes: string }) =>
      api('PATCH', `/teams/${enc(key)}`, input, teamSheetSchema),
    onSuccess: (sheet) => changed(sheet),
  });
}

export function usePublish(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: () => api('POST', `/teams/${enc(key)}/publish`, undefined, publishResultSchema),
    onSuccess: () => changed(),
  });
}

export function useUnpublish(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: () => api('DELETE', `/teams/${enc(key)}/publish`, undefined, okSchema),
    onSuccess: () => changed(),
  });
}

export function useSavePlayer(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: async (input: {
      playerKey: string;
      player: PlayerInput;
      dataUrl: string | null;
    }) => {
      const saved = await api(
        'PUT',
        `/teams/${enc(key)}/players/${enc(input.playerKey)}`,
        input.player,
        playerSchema,
      );
      // SPEC §5 / §9: the photo is uploaded only when its data is longer than 1024.
      if (input.dataUrl && input.dataUrl.length > 1024) {
        return api(
          'PUT',
          `/teams/${enc(key)}/players/${enc(saved.key)}/photo`,
          { dataUrl: input.dataUrl },
          playerSchema,
        );
      }
      return saved;
    },
    onSettled: () => changed(),
  });
}

export function useDeletePlayer(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: (playerKey: string) =>
      api('DELETE', `/teams/${enc(key)}/players/${enc(playerKey)}`, undefined, okSchema),
    onSuccess: () => changed(),
  });
}

export function useBulkUpload(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: (text: string) =>
      api('POST', `/teams/${enc(key)}/players/bulk`, { text }, bulkResultSchema),
    onSuccess: () => changed(),
  });
}

export function useSaveGroup(key: string) {
  const changed = useTeamChanged(key);
  return useMutation({
    mutationFn: (input: { groupKey: string | undefined; groupName: string }) =>
      input.groupKey
        ? api(
            'PATCH',
            `/teams/${enc(key)}/groups/${enc(input.groupKey)}`,
            { groupName: input.groupName },
            groupSchema,
          )
        : api('POST', `/teams/${enc(key)}/groups`, { groupName: input.groupName }, groupSchema),
    onSuccess: () => changed(),
  });
}

export function useSetLocation(key: string, groupKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { playerKey: string; location: number }) =>
      api(
        'PUT',
        `/teams/${enc(key)}/groups/${enc(groupKey)}/members/${enc(input.playerKey)}`,
        { location: input.location },
        membershipSchema,
      ),
    onSuccess: (m) => {
      qc.setQueryData<TeamSheet>(teamKey(key), (old) =>
        old
          ? {
              ...old,
              groupMembership: {
                ...old.groupMembership,
                [groupKey]: { ...old.groupMembership[groupKey], [m.playerKey]: m },
              },
            }
          : old,
      );
    },
  });
}

export function useFollow(publishedAsKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) =>
      api(
        follow ? 'PUT' : 'DELETE',
        `/me/favorite-rosters/${enc(publishedAsKey)}`,
        undefined,
        okSchema,
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: rosterKey(publishedAsKey) });
      void qc.invalidateQueries({ queryKey: teamsKey });
    },
  });
}
