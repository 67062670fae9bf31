import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { AuthStatus, menuName } from '@sagan/shared/auth';
import { pathTo } from '@sagan/shared/routes';
import { links } from '../config/links.ts';
import { useAppConfig, useAuth, useSessionEndFromServer, useSignOut } from '../lib/auth.ts';
import { useTheme } from '../components/use-theme.ts';

function MoonIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z"
        fill="currentColor"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Dark mode follows the system until the visitor picks here (remembered). */
function ThemeToggle() {
  const { theme, toggle } = useTheme();
  return (
    <button
      type="button"
      className="linklike theme-toggle"
      aria-pressed={theme === 'dark'}
      aria-label="Dark mode"
      title={theme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'}
      onClick={toggle}
    >
      <MoonIcon />
    </button>
  );
}

function TopMenu() {
  const { authStatus, user } = useAuth();
  const signOut = useSignOut();
  useSessionEndFromServer();
  const navigate = useNavigate();
  return (
    <header className="top-menu">
      <nav aria-label="Main">
        <Link to={pathTo('dashboard')} className="logo" aria-label="Sagan home">
          <img src={`${import.meta.env.BASE_URL}img/logo.svg`} alt="" width="28" height="28" />
          <span>Sagan</span>
        </Link>
        <ul>
          <li>
            <NavLink to={pathTo('dashboard')} end>
              Home
            </NavLink>
          </li>
          <li>
            <NavLink to={pathTo('scoreboards')}>Scoreboards</NavLink>
          </li>
          <li>
            <NavLink to={pathTo('teamsheets')}>Team Sheets</NavLink>
          </li>
          <li>
            <a href={links.about} target="_blank" rel="noopener noreferrer">
              About
            </a>
          </li>
          <li>
            <ThemeToggle />
          </li>
          <li className="login-item">
            {authStatus === AuthStatus.SignedIn && user ? (
              <button
                type="button"
                className="linklike"
                title="Sign out"
                onClick={() =>
                  signOut.mutate(undefined, {
                    onSuccess: () => navigate(pathTo('dashboard')),
                  })
                }
              >
                {menuName(user)}
              </button>
            ) : (
              <NavLink to={pathTo('Login')}>Login</NavLink>
            )}
          </li>
        </ul>
      </nav>
      {signOut.error && (
        <p className="form-error banner" role="alert">
          {signOut.error.message}
        </p>
      )}
    </header>
  );
}

function Footer() {
  const config = useAppConfig();
  const email = config.data?.supportEmail;
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div>
          <h2>Contact Us</h2>
          <p>
            Feature requests, bug reports and questions are welcome by e-mail. A real person reads
            every message and will reply.
          </p>
        </div>
        <ul className="contact-list">
          {email && (
            <li>
              <a href={`mailto:${email}`}>{email}</a>
            </li>
          )}
          <li>
            <a href={links.social} target="_blank" rel="noopener noreferrer">
              Follow us
            </a>
          </li>
          <li>
            <a href={links.blog}>Blog</a>
          </li>
          <li>
            <a href={links.about} target="_blank" rel="noopener noreferrer">
              About
            </a>
          </li>
          <li>
            <a href={links.privacy}>Privacy</a>
          </li>
          <li>
            <a href={links.terms}>Terms of Service</a>
          </li>
          <li className="copyright">© 2025 Sagan. All rights reserved.</li>
        </ul>
      </div>
    </footer>
  );
}

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopMenu />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
