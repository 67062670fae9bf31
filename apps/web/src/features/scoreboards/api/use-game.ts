import { gameOwnTopic, gameTopic } from '../../../lib/viewer-topics.ts';
import type { GameTopic } from '@sagan/shared/scoreboard-views';
import { useAuth } from '../../../lib/auth.ts';
import { useLive, type TopicResult } from '../../../lib/realtime.ts';

/**
 * A game as the signed-in person may see it: the public topic, or, for a game missing to the
 * public, the scorers' own view, which shows a game an operator hid (marked hidden) to its
 * owner, its co-scorers and the operators (DESIGN §10). Everyone else is refused that view and
 * keeps the public answer: not found.
 */
export function useGame(
  gameKey: string | null,
): TopicResult<(NonNullable<GameTopic> & { hidden?: boolean }) | null> {
  const { user } = useAuth();
  const shown = useLive(gameTopic, gameKey);
  const own = useLive(gameOwnTopic, shown.data === null && user ? gameKey : null);
  return shown.data === null && own.data ? own : shown;
}
