import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import {
  useAppConfig,
  signedInMenuName,
  useAuthWith,
  useSessionEndFromServer,
  useDeleteAccount,
  useSignOut,
  useSignOutEverywhere,
} from '../lib/auth.ts';
import { API_PATH } from '@sagan/shared/http-paths';
import { DELETE_ACCOUNT_CONFIRMATION } from '@sagan/shared/account';
import { ExternalLink, useHasExternalLink } from '../components/external-link.tsx';
import { Icon } from '../components/icon.tsx';
import { useTheme } from '../components/use-theme.ts';
import { OwnerNotices } from '../features/moderation/owner-notices.tsx';
import { useDisclosure } from './use-disclosure.ts';

function MoonIcon() {
  return (
    <Icon size={20}>
      <path
        d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z"
        fill="currentColor"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
    </Icon>
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

function MenuIcon() {
  return (
    <Icon size={20}>
      <path
        d="M4 6h16M4 12h16M4 18h16"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </Icon>
  );
}

/**
 * The links of the top menu. On a phone they fold behind a Menu button (CSS decides, so the
 * server-rendered page has the same layout as the app that takes it over).
 */
function MainLinks() {
  const { open, rootRef, buttonProps, panelId } = useDisclosure();
  const hasAbout = useHasExternalLink('about');
  return (
    <div className="nav-menu" ref={rootRef}>
      <button {...buttonProps} className="linklike menu-button" aria-label="Menu">
        <MenuIcon />
        <span className="label-wide-only">Menu</span>
      </button>
      <ul id={panelId} className="nav-links" data-open={open || undefined}>
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
        {hasAbout && (
          <li>
            <ExternalLink to="about">About</ExternalLink>
          </li>
        )}
      </ul>
    </div>
  );
}

/**
 * DESIGN §8/§9: your name opens a small menu (Sign out, Sign out everywhere) instead of
 * signing out on one tap.
 */
function UserMenu({ name, onSignedOut }: { name: string; onSignedOut: (note: string) => void }) {
  const { open, close, rootRef, buttonProps, panelId } = useDisclosure();
  const signOut = useSignOut();
  const everywhere = useSignOutEverywhere();
  const firstItem = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) firstItem.current?.focus();
  }, [open]);
  const error = signOut.error ?? everywhere.error;
  return (
    <div className="user-menu" ref={rootRef}>
      <button {...buttonProps} className="linklike user-button">
        <span className="user-name">{name}</span>
        <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
          <path d="M2 4l4 4 4-4" stroke="currentColor" strokeWidth="1.6" fill="none" />
        </svg>
      </button>
      <div id={panelId} className="user-panel" hidden={!open}>
        <p className="user-panel-name">
          Signed in as <strong>{name}</strong>
        </p>
        <ul>
          <li>
            <button
              ref={firstItem}
              type="button"
              className="linklike"
              disabled={signOut.isPending || everywhere.isPending}
              onClick={() =>
                signOut.mutate(undefined, {
                  onSuccess: () => {
                    close();
                    onSignedOut('You are signed out.');
                  },
                })
              }
            >
              Sign out
            </button>
          </li>
          <li>
            <button
              type="button"
              className="linklike"
              disabled={signOut.isPending || everywhere.isPending}
              onClick={() =>
                everywhere.mutate(undefined, {
                  onSuccess: ({ ended }) => {
                    close();
                    onSignedOut(
                      `You are signed out on every device (${ended} ${ended === 1 ? 'sign-in' : 'sign-ins'} ended).`,
                    );
                  },
                })
              }
            >
              Sign out everywhere
            </button>
            <p className="help">Also on your other phones and computers.</p>
          </li>
          <li>
            <a className="linklike" href={`${API_PATH}/me/data`} download>
              Download my data
            </a>
            <p className="help">Everything Sagan holds about you, as one file.</p>
          </li>
          <li>
            <DeleteAccount
              onDeleted={() => onSignedOut('Your account and everything in it are deleted.')}
            />
          </li>
        </ul>
        {error && (
          <p className="form-error" role="alert">
            {error.message}
          </p>
        )}
      </div>
    </div>
  );
}

/** Deleting cannot be undone: the person types the confirmation the server also checks. */
function DeleteAccount({ onDeleted }: { onDeleted: () => void }) {
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteAccount();
  if (!asking) {
    return (
      <button type="button" className="linklike danger" onClick={() => setAsking(true)}>
        Delete my account…
      </button>
    );
  }
  const confirmed = typed.trim().toLowerCase() === DELETE_ACCOUNT_CONFIRMATION;
  return (
    <form
      className="delete-account"
      onSubmit={(e) => {
        e.preventDefault();
        if (confirmed) remove.mutate(undefined, { onSuccess: onDeleted });
      }}
    >
      <p className="help">
        This deletes your teams, players, photos, games, play counts and share links for good.
      </p>
      <label>
        <span>
          Type <strong>{DELETE_ACCOUNT_CONFIRMATION}</strong> to confirm
        </span>
        <input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </label>
      <div className="delete-account-actions">
        <button type="submit" className="btn danger" disabled={!confirmed || remove.isPending}>
          Delete my account
        </button>
        <button type="button" className="linklike" onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
      {remove.error && (
        <p className="form-error" role="alert">
          {remove.error.message}
        </p>
      )}
    </form>
  );
}

/**
 * The user's menu, or the Login link: the one part of the top menu that depends on who is
 * signed in, so the session check's answer renders this and not the menu around it.
 */
function AccountEntry({ onSignedOut }: { onSignedOut: (note: string) => void }) {
  // Its name only: the answer that nobody is signed in leaves the Login link as rendered.
  const name = useAuthWith(signedInMenuName);
  return name !== null ? (
    <UserMenu name={name} onSignedOut={onSignedOut} />
  ) : (
    <NavLink className="login-link" to={pathTo('Login')}>
      Login
    </NavLink>
  );
}

function TopMenu() {
  useSessionEndFromServer();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Said on the page the sign-out leads to, and gone with the next navigation.
  const [note, setNote] = useState<{ text: string; at: string } | null>(null);
  const home = pathTo('dashboard');
  return (
    <header className="top-menu">
      <nav aria-label="Main">
        <Link to={home} className="logo" aria-label="Sagan home">
          <img src={`${import.meta.env.BASE_URL}img/logo.svg`} alt="" width="28" height="28" />
          <span>Sagan</span>
        </Link>
        <MainLinks />
        <div className="nav-end">
          <ThemeToggle />
          <AccountEntry
            onSignedOut={(text) => {
              setNote({ text, at: home });
              navigate(home);
            }}
          />
        </div>
      </nav>
      {note && note.at === pathname && (
        <p className="banner" role="status">
          {note.text}
        </p>
      )}
    </header>
  );
}

function Footer() {
  const config = useAppConfig();
  const email = config.data?.supportEmail;
  const links = config.data?.links;
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
          {links?.social && (
            <li>
              <ExternalLink to="social">Follow us</ExternalLink>
            </li>
          )}
          {links?.blog && (
            <li>
              <ExternalLink to="blog">Blog</ExternalLink>
            </li>
          )}
          {links?.about && (
            <li>
              <ExternalLink to="about">About</ExternalLink>
            </li>
          )}
          <li>
            <Link to={pathTo('privacy')}>Privacy</Link>
          </li>
          <li>
            <Link to={pathTo('termsOfService')}>Terms of Service</Link>
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
      <OwnerNotices />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
