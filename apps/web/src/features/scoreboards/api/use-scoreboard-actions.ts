import { useMutation, useQuery } from '@tanstack/react-query';
import type { watchersSchema } from '@sagan/shared/scoreboard-views';
import type { z } from 'zod';
import { reader } from '../../../lib/shape.ts';
import * as shapes from '../../../lib/shapes.ts';
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

// The board's own first load reads the count with a shape, not zod (lib/shape.ts).
const watchersReader = reader<z.output<typeof watchersSchema>>(shapes.watchers);

const WATCHERS_POLL_MS = 30_000;
const FIRST_WATCHERS_RECHECK_MS = 2_000;

/**
 * SPEC §7 countScoreboardWatchers, polled rather than asked again on every change of the game:
 * with 10,000 viewers that would be 10,000 requests to the server for every goal.
 */
export function useWatchers(gameKey: string) {
  return useQuery({
    queryKey: ['scoreboards', 'watchers', gameKey],
    queryFn: () => api('GET', `/games/${enc(gameKey)}/watchers`, undefined, watchersReader),
    // The first answer can come before this page's own subscription has reached the server
    // (it then leaves the viewer out): ask again shortly, then on the slow poll.
    refetchInterval: (query) =>
      query.state.dataUpdateCount <= 1 ? FIRST_WATCHERS_RECHECK_MS : WATCHERS_POLL_MS,
    placeholderData: (previous) => previous,
  });
}
