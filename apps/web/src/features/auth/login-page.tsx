import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { displayNameSchema } from '@sagan/shared/auth';
import { pathTo } from '@sagan/shared/routes';
import { useAppConfig, useSignIn } from '../../lib/auth.ts';
import { GoogleButton } from './google-button.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/use-page-title.ts';

/** Only same-site paths are accepted as a return target (no open redirect). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : pathTo('dashboard');
}

export default function LoginPage() {
  usePageTitle('Login');
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

  function onLocal(e: FormEvent) {
    e.preventDefault();
    const parsed = displayNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? 'Please enter a name');
      return;
    }
    setNameError(null);
    signIn.mutate({ kind: 'local', displayName: parsed.data }, { onSuccess: done });
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
        <form className="card local-signin" onSubmit={onLocal} noValidate>
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
