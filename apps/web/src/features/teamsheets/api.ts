import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  bulkResultSchema,
  groupSchema,
  membershipSchema,
  playerSchema,
  publishResultSchema,
  teamSheetSchema,
  teamsListSchema,
  teamSummarySchema,
} from '@sagan/shared/teamsheet-schemas';
import type { PlayerInput } from '@sagan/shared/teamsheet';
import { okSchema } from '@sagan/shared/http';
import { scoringSeasonSchema } from '@sagan/shared/scoring-season';
import { teamTopic } from '@sagan/shared/topics/team';
import { api } from '../../lib/api.ts';
import { saveKeys, type KeyedSave } from '../../lib/save-key.ts';
import { useLive, useLiveWrite } from '../../lib/realtime.ts';

const enc = encodeURIComponent;

const teamsKey = ['teamsheets', 'list'] as const;

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

/** The keys of one form's saves (lib/save-key.ts): renewed after each answered save. */
function useSaveKey(): KeyedSave {
  const [keyed] = useState(saveKeys);
  return keyed;
}

export function useCreateTeam() {
  const qc = useQueryClient();
  const keyed = useSaveKey();
  return useMutation({
    mutationFn: () => keyed((key) => api('POST', '/teams', undefined, teamSummarySchema, key)),
    onSuccess: () => qc.invalidateQueries({ queryKey: teamsKey }),
  });
}

/** Deletes the team (it then reads as not found everywhere) and reloads the list of teams. */
export function useDeleteTeam(key: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('DELETE', `/teams/${enc(key)}`, undefined, okSchema),
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

/**
 * One request: the player and their new photo are saved together or not at all, so a picture
 * the server refuses leaves no player behind for a retry to duplicate.
 */
export function useSavePlayer(key: string) {
  const { live, changed } = useTeamWrite(key);
  const keyed = useSaveKey();
  return useMutation({
    mutationFn: (input: { playerKey: string; player: PlayerInput; dataUrl: string | null }) =>
      live(() =>
        keyed((once) =>
          api(
            'PUT',
            `/teams/${enc(key)}/players/${enc(input.playerKey)}`,
            {
              ...input.player,
              // SPEC §5 / §9: the photo is sent only when its data is longer than 1024.
              ...(input.dataUrl && input.dataUrl.length > 1024 ? { dataUrl: input.dataUrl } : {}),
            },
            playerSchema,
            once,
          ),
        ),
      ),
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
  const keyed = useSaveKey();
  return useMutation({
    mutationFn: (input: { text: string }) =>
      live(() =>
        keyed((once) =>
          api('POST', `/teams/${enc(key)}/players/bulk`, input, bulkResultSchema, once),
        ),
      ),
    onSuccess: changed,
  });
}

export function useSaveGroup(key: string) {
  const { live, changed } = useTeamWrite(key);
  const keyed = useSaveKey();
  return useMutation({
    mutationFn: (input: { groupKey: string | undefined; groupName: string }) =>
      live(() =>
        keyed((once) =>
          input.groupKey
            ? api(
                'PATCH',
                `/teams/${enc(key)}/groups/${enc(input.groupKey)}`,
                { groupName: input.groupName },
                groupSchema,
                once,
              )
            : api(
                'POST',
                `/teams/${enc(key)}/groups`,
                { groupName: input.groupName },
                groupSchema,
                once,
              ),
        ),
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

/** The owner's season of box scores: each player's points over the games linked to the sheet. */
export function useScoringSeason(teamKey: string) {
  return useQuery({
    queryKey: ['teamsheets', 'scoring-season', teamKey],
    queryFn: () => api('GET', `/scoring-seasons/${enc(teamKey)}`, undefined, scoringSeasonSchema),
  });
}
