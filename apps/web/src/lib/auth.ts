import { useEffect, useSyncExternalStore } from 'react';
import type { z } from 'zod';
import type {
  appConfigSchema,
  AppConfig,
  LogoutAllResponse,
  SessionState,
  SessionUser,
} from '@sagan/shared/auth';
import { AuthStatus, menuName } from '@sagan/shared/auth-status';
import { DELETE_ACCOUNT_CONFIRMATION, type deleteAccountResultSchema } from '@sagan/shared/account';
import { api } from './api.ts';
import { remember, rememberedUser, sessionUserReader } from './device-user.ts';
import { realtime } from './realtime.ts';
import { reader } from './shape.ts';
import { useAction } from './use-action.ts';
import * as shapes from './shapes.ts';

// Every page asks who is signed in, so these answers are read with shapes, not zod (shape.ts).
const sessionStateReader = reader<SessionState>(shapes.sessionState);
const appConfigReader = reader<z.output<typeof appConfigSchema>>(shapes.appConfig);

// Who is signed in and the site's config, kept here rather than in TanStack Query, which stays
// off a viewer's first load (it loads with the owner's screens: lib/query-client.tsx).
interface SessionSnapshot {
  /** undefined until the first answer, and after a failed check that had none. */
  user: SessionUser | null | undefined;
  settled: boolean;
}
let session: SessionSnapshot = { user: undefined, settled: false };
let sessionAt = 0;
let sessionCheck: Promise<void> | null = null;
const sessionListeners = new Set<() => void>();
const authChangeListeners = new Set<() => void>();
/** Sign-ins and sign-outs of this tab under way: they set the state themselves. */
let authWritesRunning = 0;
/** An answer older than this is asked again when another screen asks who is signed in. */
const SESSION_STALE_MS = 60_000;
const SESSION_RETRY_MS = 1_000;

function setSession(next: SessionSnapshot): void {
  session = next;
  sessionAt = Date.now();
  for (const l of sessionListeners) l();
}

function subscribeSession(listener: () => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

// The session check answers nobody with 200 (not /auth/me's 401), so an anonymous page logs no
// failed request (DESIGN §9).
async function fetchMe(): Promise<SessionUser | null> {
  const { user } = await api('GET', '/auth/session', undefined, sessionStateReader);
  remember(user);
  return user;
}

/** Asks the server who is signed in (one retry after a failure), unless a check is under way. */
function checkSession(): Promise<void> {
  sessionCheck ??= fetchMe()
    .catch(
      () =>
        new Promise<SessionUser | null>((resolve, reject) =>
          setTimeout(() => fetchMe().then(resolve, reject), SESSION_RETRY_MS),
        ),
    )
    .then(
      (user) => setSession({ user, settled: true }),
      // A failed check leaves the last answer, as a failed refetch would.
      () => setSession({ user: session.user, settled: true }),
    )
    .finally(() => {
      sessionCheck = null;
    });
  return sessionCheck;
}

/** Called when a screen's data may depend on who is signed in (lib/query-client.tsx). */
export function onAuthChange(listener: () => void): () => void {
  authChangeListeners.add(listener);
  return () => authChangeListeners.delete(listener);
}

/**
 * Who is signed in as known before any request: a per-user page is rendered for the cookie of
 * its request and carries the answer (#sagan-session), and both its render and the app's first
 * one start with it; undefined (every shared page) leaves it unknown until asked.
 */
export function setInitialSession(user: SessionUser | null | undefined): void {
  session = user === undefined ? { user: undefined, settled: false } : { user, settled: true };
  sessionAt = Date.now();
}

/** Who the server-rendered page was rendered for, or undefined when it does not say. */
export function readInitialSession(doc: Document): SessionUser | null | undefined {
  const text = doc.getElementById('sagan-session')?.textContent;
  if (!text) return undefined;
  try {
    const parsed = sessionStateReader.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.user : undefined;
  } catch {
    return undefined;
  }
}

const currentSession = () => session;

type Auth = { authStatus: AuthStatus; user: SessionUser | null };

/** SPEC §4: 0 unknown until the first answer, then 1 signed out or 2 signed in. */
function authOf(me: SessionSnapshot): Auth {
  if (me.user === undefined) {
    // Offline, the session cannot be asked: the user this device last saw stands in (an owner's
    // screen opened from the service worker's copy shows; the server still checks every write).
    const offline = typeof navigator !== 'undefined' && !navigator.onLine ? rememberedUser() : null;
    if (offline) return { authStatus: AuthStatus.SignedIn, user: offline };
  }
  if (!me.settled) return { authStatus: AuthStatus.Unknown, user: null };
  if (me.user) return { authStatus: AuthStatus.SignedIn, user: me.user };
  return { authStatus: AuthStatus.SignedOut, user: null };
}

/** Asks who is signed in when the known answer is missing or old. */
function useSessionCheck(): void {
  useEffect(() => {
    if (!sessionCheck && (!session.settled || Date.now() - sessionAt > SESSION_STALE_MS))
      void checkSession();
  }, []);
}

export function useAuth(): Auth {
  // The server's render reads the session its request set (setInitialSession), as the config.
  const me = useSyncExternalStore(subscribeSession, currentSession, currentSession);
  useSessionCheck();
  return authOf(me);
}

/**
 * One value that depends on who is signed in (a uid, a flag), for a component whose rendering
 * depends on nothing else of it: the component renders again only when that value changes, so
 * the session check's answer that changes nothing for it (a fan who is not signed in) does not
 * render it, and whatever it holds, again.
 */
export function useAuthWith<T extends string | number | boolean | null>(
  select: (auth: Auth) => T,
): T {
  const read = () => select(authOf(session));
  const value = useSyncExternalStore(subscribeSession, read, read);
  useSessionCheck();
  return value;
}

/** The top menu's name of who is signed in, or null while nobody is (or it is not known yet). */
export const signedInMenuName = (auth: Auth): string | null =>
  auth.authStatus === AuthStatus.SignedIn && auth.user ? menuName(auth.user) : null;

// GET /config: a server-rendered page carries the answer (#sagan-config), and both its render
// and the app's first one start with it.
let appConfig: { data: AppConfig | undefined; failed: boolean } = {
  data: undefined,
  failed: false,
};
let configCheck: Promise<void> | null = null;
const configListeners = new Set<() => void>();

function setConfig(next: typeof appConfig): void {
  appConfig = next;
  for (const l of configListeners) l();
}

/** The site's config as known before any request: the page's, or the server render's. */
export function setInitialConfig(config: AppConfig | null | undefined): void {
  appConfig = { data: config ?? undefined, failed: false };
}

/** GET /config's answer as the server-rendered page carries it, if it does. */
export function readInitialConfig(doc: Document): AppConfig | null {
  const text = doc.getElementById('sagan-config')?.textContent;
  if (!text) return null;
  try {
    const parsed = appConfigReader.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function subscribeConfig(listener: () => void): () => void {
  configListeners.add(listener);
  return () => configListeners.delete(listener);
}

export function useAppConfig(): {
  data: AppConfig | undefined;
  isPending: boolean;
  isError: boolean;
} {
  const config = useSyncExternalStore(
    subscribeConfig,
    () => appConfig,
    () => appConfig,
  );
  useEffect(() => {
    if (appConfig.data || configCheck) return;
    if (appConfig.failed) setConfig({ data: undefined, failed: false });
    configCheck = api('GET', '/config', undefined, appConfigReader).then(
      (data) => setConfig({ data, failed: false }),
      () => {
        configCheck = null; // the next screen that asks tries again
        setConfig({ data: undefined, failed: true });
      },
    );
  }, []);
  return { data: config.data, isPending: !config.data && !config.failed, isError: config.failed };
}

/** After a sign-in or sign-out: every screen follows who is now signed in (SPEC §4). */
function afterAuthChange(user: SessionUser | null): void {
  remember(user);
  setSession({ user, settled: true });
  for (const l of authChangeListeners) l();
  realtime.reconnect();
}

/**
 * The server ended this tab's session (sign-out in another tab or on another device, "sign out
 * everywhere", expiry): ask again who is signed in, and screens follow as after a sign-out here.
 */
export function useSessionEndFromServer(): void {
  useEffect(
    () =>
      realtime.onSignedOut(() => {
        // This tab's own sign-out (or sign-in over an old session) ended it: nothing to ask.
        if (authWritesRunning > 0) return;
        fetchMe().then(afterAuthChange, () => undefined);
      }),
    [],
  );
}

/** A sign-in or sign-out: counted while under way, then every screen follows its answer. */
function authWrite<I, O>(run: (input: I) => Promise<O>, user: (out: O) => SessionUser | null) {
  return async (input: I): Promise<O> => {
    authWritesRunning++;
    try {
      const out = await run(input);
      afterAuthChange(user(out));
      return out;
    } finally {
      authWritesRunning--;
    }
  };
}

const signIn = authWrite(
  (input: { kind: 'google'; credential: string } | { kind: 'local'; displayName: string }) =>
    input.kind === 'google'
      ? api('POST', '/auth/google', { credential: input.credential }, sessionUserReader)
      : api('POST', '/auth/local', { displayName: input.displayName }, sessionUserReader),
  (user) => user,
);
const signOut = authWrite<void, unknown>(
  () => api('POST', '/auth/logout'),
  () => null,
);
/** Ends every session of this user, on every device (DESIGN §9 user menu). */
const signOutEverywhere = authWrite<void, LogoutAllResponse>(
  // Typed only: the shell has no reader for it, and the server checks its own answer.
  () => api<LogoutAllResponse>('POST', '/auth/logout-all'),
  () => null,
);
/** Deletes the account and everything in it; the tab is then signed out (DESIGN §10). */
const deleteAccount = authWrite<void, z.output<typeof deleteAccountResultSchema>>(
  () =>
    // Typed only, as the sign-out everywhere above.
    api<z.output<typeof deleteAccountResultSchema>>('POST', '/me/delete', {
      confirm: DELETE_ACCOUNT_CONFIRMATION,
    }),
  () => null,
);

export const useSignIn = () => useAction(signIn);
export const useSignOut = () => useAction(signOut);
export const useSignOutEverywhere = () => useAction(signOutEverywhere);
export const useDeleteAccount = () => useAction(deleteAccount);
