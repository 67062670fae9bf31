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
} from '@sagan/shared/teamsheet-schemas';
import type { PlayerInput } from '@sagan/shared/teamsheet';
import { API_PATH, okSchema } from '@sagan/shared/http';
import { teamTopic } from '@sagan/shared/topics/team';
import { api } from '../../lib/api.ts';
import { useLive, useLiveWrite } from '../../lib/realtime.ts';

const enc = encodeURIComponent;

const teamsKey = ['teamsheets', 'list'] as const;
const rosterKey = (key: string) => ['teamsheets', 'roster', key] as const;

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

/**
 * The owner's team sheet, live from the team:{teamKey} topic (sent on subscribe and after every
 * change, from this tab or another). Writes go over the API; data null = deleted or refused.
 */
export const useTeam = (key: string) => useLive(teamTopic, key);

/** A published sheet as the signed-in user sees it: the sheet, and whether they follow it. */
export function useRoster(key: string, enabled: boolean) {
  return useQuery({
    queryKey: rosterKey(key),
    queryFn: () => api('GET', `/rosters/${enc(key)}`, undefined, publicRosterResponseSchema),
    retry: false,
    enabled,
  });
}

/**
 * A write to one team: it settles once the team topic shows it (so the screen never shows the
 * sheet from before a successful save), then the list of teams, read over the API, reloads.
 */
function useTeamWrite(key: string) {
  const qc = useQueryClient();
  const live = useLiveWrite(teamTopic, key);
  return {
    live,
    changed: () => void qc.invalidateQueries({ queryKey: teamsKey }),
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
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: (input: { teamName: string; teamNotes: string }) =>
      live(() => api('PATCH', `/teams/${enc(key)}`, input, teamSheetSchema)),
    onSuccess: changed,
  });
}

export function usePublish(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: () =>
      live(() => api('POST', `/teams/${enc(key)}/publish`, undefined, publishResultSchema)),
    onSuccess: changed,
  });
}

export function useUnpublish(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: () => live(() => api('DELETE', `/teams/${enc(key)}/publish`, undefined, okSchema)),
    onSuccess: changed,
  });
}

export function useSavePlayer(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: (input: { playerKey: string; player: PlayerInput; dataUrl: string | null }) =>
      live(async () => {
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
      }),
    onSettled: changed,
  });
}

export function useDeletePlayer(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: (playerKey: string) =>
      live(() =>
        api('DELETE', `/teams/${enc(key)}/players/${enc(playerKey)}`, undefined, okSchema),
      ),
    onSuccess: changed,
  });
}

export function useBulkUpload(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: (text: string) =>
      live(() => api('POST', `/teams/${enc(key)}/players/bulk`, { text }, bulkResultSchema)),
    onSuccess: changed,
  });
}

export function useSaveGroup(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: (input: { groupKey: string | undefined; groupName: string }) =>
      live(() =>
        input.groupKey
          ? api(
              'PATCH',
              `/teams/${enc(key)}/groups/${enc(input.groupKey)}`,
              { groupName: input.groupName },
              groupSchema,
            )
          : api('POST', `/teams/${enc(key)}/groups`, { groupName: input.groupName }, groupSchema),
      ),
    onSuccess: changed,
  });
}

export function useSetLocation(key: string, groupKey: string) {
  const { live } = useTeamWrite(key);
  return useMutation({
    mutationFn: (input: { playerKey: string; location: number }) =>
      live(() =>
        api(
          'PUT',
          `/teams/${enc(key)}/groups/${enc(groupKey)}/members/${enc(input.playerKey)}`,
          { location: input.location },
          membershipSchema,
        ),
      ),
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
