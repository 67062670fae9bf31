import { ContactLink, LegalPage } from './legal-page.tsx';

/** SPEC §2 footer 'Terms of Service' (/termsOfService), in plain words. */
export default function TermsPage() {
  return (
    <LegalPage title="Terms of Service">
      {(operator) => (
        <>
          <p>
            {operator.name && (
              <>
                Sagan on this site is provided by <strong>{operator.name}</strong>.{' '}
              </>
            )}
            By using it you agree to these terms. Questions: <ContactLink operator={operator} />.
          </p>

          <h2>Using the site</h2>
          <ul>
            <li>Watching scoreboards is free and needs no account.</li>
            <li>
              Sign in with your own account only, and keep your sign-in to yourself. You can sign
              out everywhere from the menu under your name.
            </li>
            <li>
              Be fair to others: no abuse, spam or attempts to break or overload the site. We may
              limit or close accounts that do this.
            </li>
          </ul>

          <h2>What you put on it</h2>
          <ul>
            <li>
              What you add (scores, comments, team sheets, photos, play counts) stays yours. You let
              us store and show it as the site works: scoreboards publicly, team sheets when you
              publish them, play counts to you and to whoever you share a link with.
            </li>
            <li>
              Only add people, names and photos you are allowed to share. For children, that means
              you are their coach or parent, or have their parents' agreement.
            </li>
            <li>We may remove content that breaks the law or these terms.</li>
          </ul>

          <h2>No guarantees</h2>
          <p>
            We do our best to keep the site running and your data safe, but the site is provided as
            it is, without a guarantee that it is always available or free of mistakes. Do not rely
            on it as the only copy of anything important.
          </p>

          <h2>Changes and ending</h2>
          <p>
            We may change these terms; the new version appears on this page. You can stop using the
            site at any time and ask us to delete your account (see Privacy).
          </p>
        </>
      )}
    </LegalPage>
  );
}
