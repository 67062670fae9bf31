import { useEffect, useState } from 'react';
import type { publicRosterResponseSchema } from '@sagan/shared/teamsheet-schemas';
import type { z } from 'zod';
import { api } from '../../lib/api.ts';
import { useAuthWith } from '../../lib/auth.ts';
import { rosterFollowed } from '../../lib/roster-shapes.ts';
import { reader } from '../../lib/shape.ts';
import { useAction, type Action } from '../../lib/use-action.ts';

// The public team sheet is a fan's page: whether the signed-in user follows it, and the follow
// toggle, are read and written without TanStack Query, which loads only with the owner's screens
// (docs/decisions/0011).

const enc = encodeURIComponent;

/** Of the sheet's answer, only whether the user follows it (a shape: no zod on a fan's page). */
const followedReader =
  reader<Pick<z.output<typeof publicRosterResponseSchema>, 'followed'>>(rosterFollowed);

/**
 * Whether the signed-in user follows the published sheet, and the toggle that changes it:
 * followed is null while unknown, when signed out, and after a failed check (the toggle then
 * stays disabled rather than guess).
 */
export function useFollowState(
  publishedAsKey: string,
  enabled: boolean,
): { followed: boolean | null; toggle: Action<boolean, boolean> } {
  // Only the uid: the page that holds this is not rendered again when a fan is found signed out.
  const uid = useAuthWith(({ user }) => user?.uid ?? null);
  // Keyed by who asked about which sheet, so a sign-out or another sheet never shows the last
  // answer.
  const asked = `${uid ?? ''}\n${publishedAsKey}`;
  const [answer, setAnswer] = useState<{ asked: string; followed: boolean | null }>();
  useEffect(() => {
    if (!enabled || !uid) return;
    let stopped = false;
    api('GET', `/rosters/${enc(publishedAsKey)}`, undefined, followedReader).then(
      (r) => {
        if (!stopped) setAnswer({ asked, followed: r.followed });
      },
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, [enabled, uid, publishedAsKey, asked]);
  const toggle = useAction(
    async (follow: boolean) => {
      await api(follow ? 'PUT' : 'DELETE', `/me/favorite-rosters/${enc(publishedAsKey)}`);
      return follow;
    },
    (follow) => setAnswer({ asked, followed: follow }),
  );
  const followed = enabled && uid && answer?.asked === asked ? answer.followed : null;
  return { followed, toggle };
}
