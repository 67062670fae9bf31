import { gameOwnTopic, gameTopic, myGamesTopic } from '../../../lib/viewer-topics.ts';
import type { GameTopic } from '@sagan/shared/scoreboard-views';
import { useAuth } from '../../../lib/auth.ts';
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
  const { user } = useAuth();
  const shown = useLive(gameTopic, gameKey);
  // The owner's own games say which games are theirs without asking for a refused view.
  const mine = useLive(myGamesTopic, user?.uid ?? null);
  const owns = !!mine.data?.some((g) => g.gameKey === gameKey);
  const own = useLive(gameOwnTopic, (shown.data === null || owns) && user ? gameKey : null);
  return (shown.data === null || owns) && own.data ? own : shown;
}
