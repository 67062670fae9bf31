import { useMutation, useQuery } from '@tanstack/react-query';
import { watchersSchema } from '@sagan/shared/scoreboard-views';
import { api } from '../../../lib/api.ts';

const enc = encodeURIComponent;

/** SPEC §4 favorite toggle: adds or removes the bookmark (the list topic then updates). */
export function useToggleBookmark(gameKey: string) {
  return useMutation({
    mutationFn: (bookmarked: boolean) =>
      api(bookmarked ? 'DELETE' : 'PUT', `/me/favorite-scoreboards/${enc(gameKey)}`),
  });
}

/** Follow or unfollow a tag (SPEC §2 tagged scoreboards; writes followedTags). */
export function useToggleFollow(tagID: string) {
  return useMutation({
    mutationFn: (following: boolean) =>
      api(following ? 'DELETE' : 'PUT', `/me/followed-tags/${enc(tagID)}`),
  });
}

/** SPEC §7 scoreKeeperMessage. */
export function useSendScorekeeperMessage(gameKey: string) {
  return useMutation({
    mutationFn: (scoreKeeperMessage: string) =>
      api('POST', `/games/${enc(gameKey)}/scorekeeper-message`, { scoreKeeperMessage }),
  });
}

/**
 * SPEC §7 countScoreboardWatchers. Asked again whenever the game changes (`version`), which on
 * a live game is often, rather than on a timer.
 */
export function useWatchers(gameKey: string, version: number | undefined) {
  return useQuery({
    queryKey: ['scoreboards', 'watchers', gameKey, version],
    queryFn: () => api('GET', `/games/${enc(gameKey)}/watchers`, undefined, watchersSchema),
    enabled: version !== undefined,
    placeholderData: (previous) => previous,
  });
}
