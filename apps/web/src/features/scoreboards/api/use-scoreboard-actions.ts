import { useEffect, useState } from 'react';
import type { watchersSchema } from '@sagan/shared/scoreboard-views';
import type { z } from 'zod';
import { reader } from '../../../lib/shape.ts';
import * as shapes from '../../../lib/shapes.ts';
import { api } from '../../../lib/api.ts';
import { useAction } from '../../../lib/use-action.ts';

const enc = encodeURIComponent;

/** SPEC §4 favorite toggle: adds or removes the bookmark (the list topic then updates). */
export function useToggleBookmark(gameKey: string) {
  return useAction((bookmarked: boolean) =>
    api(bookmarked ? 'DELETE' : 'PUT', `/me/favorite-scoreboards/${enc(gameKey)}`),
  );
}

/** Follow or unfollow a tag (SPEC §2 tagged scoreboards; writes followedTags). */
export function useToggleFollow(tagID: string) {
  return useAction((following: boolean) =>
    api(following ? 'DELETE' : 'PUT', `/me/followed-tags/${enc(tagID)}`),
  );
}

/** SPEC §7 scoreKeeperMessage. */
export function useSendScorekeeperMessage(gameKey: string) {
  return useAction((scoreKeeperMessage: string) =>
    api('POST', `/games/${enc(gameKey)}/scorekeeper-message`, { scoreKeeperMessage }),
  );
}

// The board's own first load reads the count with a shape, not zod (lib/shape.ts).
type Watchers = z.output<typeof watchersSchema>;
const watchersReader = reader<Watchers>(shapes.watchers);

const WATCHERS_POLL_MS = 30_000;
const FIRST_WATCHERS_RECHECK_MS = 2_000;

/**
 * SPEC §7 countScoreboardWatchers, polled rather than asked again on every change of the game:
 * with 10,000 viewers that would be 10,000 requests to the server for every goal.
 */
export function useWatchers(gameKey: string): { data: Watchers | undefined } {
  // The last answer stays shown while the next is asked, and across a failed ask.
  const [answer, setAnswer] = useState<{ gameKey: string; data: Watchers }>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let answers = 0;
    const ask = () => {
      api('GET', `/games/${enc(gameKey)}/watchers`, undefined, watchersReader)
        .then(
          (data) => {
            answers++;
            if (!stopped) setAnswer({ gameKey, data });
          },
          () => undefined,
        )
        .finally(() => {
          // The first answer can come before this page's own subscription has reached the
          // server (it then leaves the viewer out): ask again shortly, then on the slow poll.
          if (!stopped)
            timer = setTimeout(ask, answers <= 1 ? FIRST_WATCHERS_RECHECK_MS : WATCHERS_POLL_MS);
        });
    };
    ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [gameKey]);
  return { data: answer?.gameKey === gameKey ? answer.data : undefined };
}
