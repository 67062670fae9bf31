import { AuthStatus } from '@sagan/shared/auth-status';
import { useAuth } from '../../../lib/auth.ts';
import { useToggleBookmark } from '../api/use-scoreboard-actions.ts';
import { favoritesTopic } from '../../../lib/viewer-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import { BookmarkIcon } from './icons.tsx';
import { SignInLink } from './sign-in-link.tsx';

/** SPEC §2 bookmark toggle: filled when the game is already bookmarked. */
export function BookmarkToggle({ gameKey }: { gameKey: string }) {
  const { authStatus, user } = useAuth();
  const favorites = useLive(favoritesTopic, user?.uid ?? null);
  const toggle = useToggleBookmark(gameKey);
  if (authStatus !== AuthStatus.SignedIn) {
    return (
      <span className="icon-toggle signed-out">
        <BookmarkIcon filled={false} />
        <SignInLink>Sign in to bookmark</SignInLink>
      </span>
    );
  }
  const bookmarked = !!favorites.data?.some((f) => f.gameKey === gameKey);
  return (
    <span className="icon-toggle">
      <button
        type="button"
        className={`icon-button${bookmarked ? ' on' : ''}`}
        aria-label="Bookmark this game"
        aria-pressed={bookmarked}
        title={bookmarked ? 'Remove bookmark' : 'Bookmark this game'}
        disabled={favorites.loading || toggle.isPending}
        onClick={() => toggle.mutate(bookmarked)}
      >
        <BookmarkIcon filled={bookmarked} />
      </button>
      {toggle.error && (
        <span className="form-error" role="alert">
          {toggle.error.message}
        </span>
      )}
    </span>
  );
}
