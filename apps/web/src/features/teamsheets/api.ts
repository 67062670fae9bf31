import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NEW_PLAYER_KEY,
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

/**
 * A client-made key for one create: a second click, or a retry after a failure, sends the same
 * key, and the server answers with what the first request made instead of making another.
 * renew() starts a new create once the last one is done with.
 */
export function useCreateKey(): [string, () => void] {
  const [key, setKey] = useState(newCreateKey);
  return [key, () => setKey(newCreateKey())];
}
// getRandomValues, not randomUUID: the latter is missing on a plain-http address (a club's LAN).
const newCreateKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(15)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

export function useCreateTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (createKey: string) => api('POST', '/teams', { createKey }, teamSummarySchema),
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
  return useMutation({
    mutationFn: (input: {
      playerKey: string;
      player: PlayerInput;
      dataUrl: string | null;
      createKey: string;
    }) =>
      live(() =>
        api(
          'PUT',
          `/teams/${enc(key)}/players/${enc(input.playerKey)}`,
          {
            ...input.player,
            ...(input.playerKey === NEW_PLAYER_KEY ? { createKey: input.createKey } : {}),
            // SPEC §5 / §9: the photo is sent only when its data is longer than 1024.
            ...(input.dataUrl && input.dataUrl.length > 1024 ? { dataUrl: input.dataUrl } : {}),
          },
          playerSchema,
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
  return useMutation({
    mutationFn: (input: { text: string; createKey: string }) =>
      live(() => api('POST', `/teams/${enc(key)}/players/bulk`, input, bulkResultSchema)),
    onSuccess: changed,
  });
}

export function useSaveGroup(key: string) {
  const { live, changed } = useTeamWrite(key);
  return useMutation({
    mutationFn: (input: { groupKey: string | undefined; groupName: string; createKey: string }) =>
      live(() =>
        input.groupKey
          ? api(
              'PATCH',
              `/teams/${enc(key)}/groups/${enc(input.groupKey)}`,
              { groupName: input.groupName },
              groupSchema,
            )
          : api(
              'POST',
              `/teams/${enc(key)}/groups`,
              { groupName: input.groupName, createKey: input.createKey },
              groupSchema,
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
