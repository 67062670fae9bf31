import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClockControl } from '@sagan/shared/game-clock';
import type { GameEventAnswer } from '@sagan/shared/game-events';
import type { HeldApply } from '@sagan/shared/game-log';
import { gameSheetsSchema, type GameSheets } from '@sagan/shared/game-sheets';
import type { Team } from '@sagan/shared/scorekeeping';
import type { ScoreboardPatch } from '@sagan/shared/scoreboard';
import { scorekeeperMessagesSchema } from '@sagan/shared/scoreboard-views';
import { teamsListSchema } from '@sagan/shared/teamsheet-schemas';
import { api } from '../../../lib/api.ts';
import { writeOnce } from '../../../lib/outbox.ts';

const enc = encodeURIComponent;

/** A short digest of a request body, so that a form's key changes with what it sends. */
function digest(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 33) ^ text.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/**
 * Creates a game, then its tags. The key is the form's, with the body's digest: a double submit
 * (or a retry after a lost answer) makes one game; a corrected form is a new request.
 */
export function useCreateGame(formKey: string) {
  return useMutation({
    mutationFn: async ({ fields, tags }: { fields: ScoreboardPatch; tags: string[] }) => {
      const key = `${formKey}_${digest(JSON.stringify(fields))}`;
      const { gameKey } = await writeOnce<{ gameKey: string }>(
        { method: 'POST', path: '/games', body: fields },
        key,
      );
      if (tags.length) {
        await writeOnce(
          { method: 'PUT', path: `/games/${enc(gameKey)}/tags`, body: { tags } },
          `${key}_tags`,
        );
      }
      return gameKey;
    },
  });
}

/** The clock buttons: sent at once (a start replayed minutes later would start it wrong). */
export function useClockControl(gameKey: string) {
  return useMutation({
    mutationFn: (control: ClockControl) =>
      writeOnce({ method: 'POST', path: `/games/${enc(gameKey)}/clock/control`, body: control }),
  });
}

export function useAddComment(gameKey: string) {
  return useMutation({
    mutationFn: (body: {
      gameComment: string;
      homeTeamName: string;
      homeScore: number;
      awayTeamName: string;
      awayScore: number;
    }) => writeOnce({ method: 'POST', path: `/games/${enc(gameKey)}/comments`, body }),
  });
}

/** The owner's void of one event from the Changes list: sent at once, its answer shown. */
export function useVoidEvent(gameKey: string, device: string) {
  return useMutation({
    mutationFn: (target: string) =>
      writeOnce<GameEventAnswer>({
        method: 'POST',
        path: `/games/${enc(gameKey)}/events`,
        body: { action: { kind: 'void', target }, device },
      }),
  });
}

/** A scorer's decision on held taps: sent at once (the first decision wins), its answer shown. */
export function useResolveHeld(gameKey: string, device: string) {
  return useMutation({
    mutationFn: ({ events, apply }: { events: string[]; apply: HeldApply }) =>
      writeOnce<GameEventAnswer>({
        method: 'POST',
        path: `/games/${enc(gameKey)}/events`,
        body: { action: { kind: 'resolve', events, apply }, device },
      }),
  });
}

export function useSetTags(gameKey: string) {
  return useMutation({
    mutationFn: (tags: string[]) =>
      writeOnce({ method: 'PUT', path: `/games/${enc(gameKey)}/tags`, body: { tags } }),
  });
}

export function useDeleteGame(gameKey: string) {
  return useMutation({
    mutationFn: () => writeOnce({ method: 'DELETE', path: `/games/${enc(gameKey)}` }),
  });
}

const MESSAGES_POLL_MS = 30_000;

/** Viewers' messages to the scorekeeper: no topic serves them, so they are polled. */
export function useMessages(gameKey: string) {
  return useQuery({
    queryKey: ['scorekeeper', 'messages', gameKey],
    queryFn: () =>
      api('GET', `/games/${enc(gameKey)}/messages`, undefined, scorekeeperMessagesSchema),
    refetchInterval: MESSAGES_POLL_MS,
  });
}

export function useMarkRead(gameKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (messageId: string) =>
      api('PATCH', `/games/${enc(gameKey)}/messages/${enc(messageId)}`, { read: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['scorekeeper', 'messages', gameKey] }),
  });
}

const sheetsKey = (gameKey: string) => ['scorekeeper', 'sheets', gameKey] as const;

/** The team sheets linked to the game's teams: the players a scorer can say scored. */
export function useGameSheets(gameKey: string) {
  return useQuery({
    queryKey: sheetsKey(gameKey),
    queryFn: () => api('GET', `/games/${enc(gameKey)}/sheets`, undefined, gameSheetsSchema),
  });
}

/** The owner links a side to one of their sheets (or unlinks it with null). */
export function useLinkSheet(gameKey: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ side, teamKey }: { side: Team; teamKey: string | null }) =>
      writeOnce<GameSheets>({
        method: 'PUT',
        path: `/games/${enc(gameKey)}/sheets/${side}`,
        body: { teamKey },
      }),
    onSuccess: (sheets) => client.setQueryData(sheetsKey(gameKey), sheets),
  });
}

/** The owner's team sheets, to link one to a team of the game. */
export function useMyTeams() {
  return useQuery({
    queryKey: ['scorekeeper', 'teams'],
    queryFn: () => api('GET', '/teams', undefined, teamsListSchema),
  });
}
