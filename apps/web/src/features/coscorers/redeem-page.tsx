import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { AuthStatus, menuName } from '@sagan/shared/auth-status';
import { inviteTokenSchema } from '@sagan/shared/coscorers';
import { pathTo } from '@sagan/shared/routes';
import { ErrorMessage } from '../../components/error-message.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { useAuth } from '../../lib/auth.ts';
import { useRedeem } from '../../components/coscorers/api.ts';
import { WriteButton } from '../../components/write-button.tsx';

/**
 * An invitation to co-score (DESIGN §10), opened from its link. The token is in the fragment,
 * so it never reaches a server log; the page asks the visitor to sign in first, then binds the
 * invitation to that account on an explicit Accept (a link preview never spends it).
 */
export default function RedeemPage() {
  usePageTitle('Invitation to score');
  const { hash } = useLocation();
  const [token] = useState(() => hash.replace(/^#/, ''));
  const { authStatus, user } = useAuth();
  const redeem = useRedeem();
  const navigate = useNavigate();
  const valid = inviteTokenSchema.safeParse(token).success;

  function accept() {
    redeem.mutate(token, {
      onSuccess: ({ kind, gameKey }) =>
        navigate(
          kind === 'game'
            ? pathTo('scoregame', { gameKey })
            : pathTo('playcountcount', { gameKey }),
          { replace: true },
        ),
    });
  }

  let body;
  if (!valid) {
    body = (
      <p role="alert">
        This invitation link is incomplete. Open the whole link you were sent, or ask for a new one.
      </p>
    );
  } else if (authStatus === AuthStatus.Unknown) {
    body = <Loading />;
  } else if (authStatus === AuthStatus.SignedOut || !user) {
    const next = `${pathTo('invite')}#${token}`;
    body = (
      <>
        <p>Sign in first: the invitation is then bound to your account.</p>
        <div className="btn-row">
          <Link className="btn primary" to={`${pathTo('Login')}?next=${encodeURIComponent(next)}`}>
            Sign in to accept
          </Link>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <p>
          Accept to score with the owner as <strong>{menuName(user)}</strong>. The owner sees your
          name and can remove you at any time.
        </p>
        <ErrorMessage error={redeem.error} />
        <div className="btn-row">
          <WriteButton write={redeem} className="btn primary" onClick={accept}>
            Accept and start scoring
          </WriteButton>
        </div>
      </>
    );
  }
  return (
    <section className="page narrow">
      <h1>You are invited to score</h1>
      {body}
    </section>
  );
}
