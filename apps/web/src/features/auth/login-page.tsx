import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import {
  signedInMenuName,
  useAppConfig,
  useAuthWith,
  useSignIn,
  useSignOut,
} from '../../lib/auth.ts';
import { GoogleButton } from './google-button.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';
import { WriteButton } from '../../components/write-button.tsx';
import { checkedOnSubmit } from '../../lib/checked.ts';

/** Only same-site paths are accepted as a return target (no open redirect). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : pathTo('dashboard');
}

/** Login while already signed in: say so, rather than offer a second sign-in. */
function SignedIn({ name }: { name: string }) {
  const signOut = useSignOut();
  return (
    <section className="page narrow">
      <h1>Login</h1>
      <p>
        You are signed in as <strong className="signed-in-name">{name}</strong>.
      </p>
      <div className="btn-row">
        <Link className="btn primary" to={pathTo('dashboard')}>
          Go to the home page
        </Link>
        <WriteButton write={signOut} className="btn" onClick={() => signOut.mutate()}>
          Sign out
        </WriteButton>
      </div>
      {signOut.error && (
        <p className="form-error" role="alert">
          {signOut.error.message}
        </p>
      )}
    </section>
  );
}

export default function LoginPage() {
  usePageTitle('Login');
  // The name of who is signed in, or null: the session check's answer that nobody is (the
  // usual one here) leaves the page as it was rendered, so it does not render it again.
  const signedInName = useAuthWith(signedInMenuName);
  const config = useAppConfig();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const next = safeNext(params.get('next'));

  const done = useCallback(() => navigate(next, { replace: true }), [navigate, next]);
  const onCredential = useCallback(
    (credential: string) => signIn.mutate({ kind: 'google', credential }, { onSuccess: done }),
    [signIn, done],
  );

  async function onLocal(e: FormEvent) {
    e.preventDefault();
    // The schema the server applies, loaded with zod when the form is sent: most visitors of
    // this page sign in with Google, or not at all.
    const displayName = await checkedOnSubmit(
      () => import('./display-name-schema.ts').then((m) => m.displayNameSchema),
      name,
      setNameError,
      'Please enter a name',
    );
    if (displayName !== undefined)
      signIn.mutate({ kind: 'local', displayName }, { onSuccess: done });
  }

  // Not while this page's own sign-in is finishing: it is about to leave for `next`.
  if (signedInName !== null && !signIn.isSuccess) {
    return <SignedIn name={signedInName} />;
  }

  return (
    <section className="page narrow">
      <h1>Login</h1>
      <p>
        Authentication is required. Please sign in with the same Google account you use in the
        companion mobile app, so that your data is linked.
      </p>
      {config.isPending ? (
        <Loading />
      ) : config.data?.googleClientId ? (
        <GoogleButton clientId={config.data.googleClientId} onCredential={onCredential} />
      ) : (
        <p className="muted">Google sign-in is not configured on this server.</p>
      )}
      {config.data?.localSignIn && (
        <form className="card local-signin" onSubmit={(e) => void onLocal(e)} noValidate>
          <h2>Local sign-in</h2>
          <p className="muted">
            For trying the app on this computer: local accounts are keyed by name, with no password,
            so the same name signs in to the same data.
          </p>
          <label htmlFor="displayName">Display name</label>
          <input
            id="displayName"
            name="displayName"
            autoComplete="nickname"
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'displayName-error' : undefined}
          />
          {nameError && (
            <p id="displayName-error" className="form-error">
              {nameError}
            </p>
          )}
          <button type="submit" className="btn primary" disabled={signIn.isPending}>
            Sign in
          </button>
        </form>
      )}
      {signIn.error && (
        <p className="form-error" role="alert">
          {signIn.error.message}
        </p>
      )}
    </section>
  );
}
