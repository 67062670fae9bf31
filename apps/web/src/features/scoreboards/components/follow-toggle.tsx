import { AuthStatus } from '@sagan/shared/auth-status';
import { useAuth } from '../../../lib/auth.ts';
import { useToggleFollow } from '../api/use-scoreboard-actions.ts';
import { followedTagsTopic } from '../../../lib/list-topics.ts';
import { useLive } from '../../../lib/realtime.ts';
import { FollowIcon } from './icons.tsx';
import { SignInLink } from './sign-in-link.tsx';

/** Following a tag puts its games under Tagged Games on the Scoreboards screen. */
export function FollowToggle({ tagID, name }: { tagID: string; name: string }) {
  const { authStatus, user } = useAuth();
  const followed = useLive(followedTagsTopic, user?.uid ?? null);
  const toggle = useToggleFollow(tagID);
  if (authStatus !== AuthStatus.SignedIn) {
    return (
      <p className="muted">
        <SignInLink>Sign in</SignInLink> to follow #{name}.
      </p>
    );
  }
  const following = !!followed.data?.tags.some((t) => t.key === tagID);
  return (
    <span className="icon-toggle">
      <button
        type="button"
        className={`icon-button${following ? ' on' : ''}`}
        aria-label={`Follow #${name}`}
        aria-pressed={following}
        title={following ? `Unfollow #${name}` : `Follow #${name}`}
        disabled={followed.loading || toggle.isPending}
        onClick={() => toggle.mutate(following)}
      >
        <FollowIcon filled={following} />
      </button>
      <span className="muted">{following ? 'Following' : 'Follow'}</span>
      {toggle.error && (
        <span className="form-error" role="alert">
          {toggle.error.message}
        </span>
      )}
    </span>
  );
}
