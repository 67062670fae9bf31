import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';

/**
 * Said on a game an operator hid, to the few who still see it (its scorers and the operators):
 * what happened, who sees it now, and what they can do about it.
 */
export function HiddenNotice({ gameKey, scoreLink }: { gameKey: string; scoreLink: boolean }) {
  return (
    <section className="hidden-notice" aria-labelledby="hidden-notice-h">
      <h2 id="hidden-notice-h">Hidden by a moderator</h2>
      <p>
        Only its scorers and the moderators can see this game. To everyone else it does not exist:
        it is gone from the home page, tags, bookmarks and shared links.
      </p>
      <p>
        You can still score it, rename it or change its tags, or delete it. A moderator can restore
        it.
      </p>
      {scoreLink && (
        <Link className="btn" to={pathTo('scoregame', { gameKey })}>
          Score or edit this game
        </Link>
      )}
    </section>
  );
}
