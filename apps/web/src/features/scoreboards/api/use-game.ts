import { gameOwnTopic, gameTopic, myGamesTopic } from '../../../lib/viewer-topics.ts';
import type { GameTopic } from '@sagan/shared/scoreboard-views';
import { AuthStatus } from '@sagan/shared/auth-status';
import { useAuthWith } from '../../../lib/auth.ts';
import { deviceUid } from '../../../lib/device-user.ts';
import { useLive, type TopicResult } from '../../../lib/realtime.ts';

/**
 * A game as the signed-in person may see it: the public topic, or the scorers' own view, which
 * shows a game an operator hid (marked hidden) to its owner, its co-scorers and the operators,
 * and, to its owner, the comments and tags an operator hid on it, marked (DESIGN §10).
 * Everyone else is refused that view and keeps the public answer: not found.
 */
export function useGame(
  gameKey: string | null,
): TopicResult<(NonNullable<GameTopic> & { hidden?: boolean }) | null> {
  // Two values, not the whole answer: the session check that finds a fan signed out changes
  // neither, and the board (the whole page) is not rendered again for it.
  const uid = useAuthWith(({ user }) => user?.uid ?? null);
  const unknownOnThisDevice = useAuthWith(
    ({ authStatus }) => authStatus === AuthStatus.Unknown && deviceUid() !== null,
  );
  const shown = useLive(gameTopic, gameKey);
  // The owner's own games say which games are theirs without asking for a refused view.
  const mine = useLive(myGamesTopic, uid);
  const owns = !!mine.data?.some((g) => g.gameKey === gameKey);
  const own = useLive(gameOwnTopic, (shown.data === null || owns) && uid ? gameKey : null);
  // The own view follows the game topic's numbers but is reloaded on each change, while the
  // public topic is moved by the write itself: of the two, the newer stands, so a tap shows on
  // the owner's screen as soon as either has it (and a hidden game has only its own view).
  const ownIsCurrent = shown.data === null || (own.seq ?? -1) >= (shown.seq ?? -1);
  if ((shown.data === null || owns) && own.data && ownIsCurrent) return own;
  // Missing to the public, but perhaps not to this person: on a device where someone signed in
  // (the server render and a fan's phone have nobody), not found only once it is known who is
  // asking and that their own view is refused.
  const mayStillSee = unknownOnThisDevice || (!!uid && own.loading);
  if (shown.data === null && mayStillSee) return { ...shown, data: undefined, loading: true };
  return shown;
}
