import { useCallback, useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  appConfigSchema,
  AppConfig,
  LogoutAllResponse,
  SessionState,
  SessionUser,
} from '@sagan/shared/auth';
import { AuthStatus } from '@sagan/shared/auth-status';
import { DELETE_ACCOUNT_CONFIRMATION, type deleteAccountResultSchema } from '@sagan/shared/account';
import { api } from './api.ts';
import { remember, rememberedUser, sessionUserReader } from './device-user.ts';
import { realtime } from './realtime.ts';
import { reader } from './shape.ts';
import * as shapes from './shapes.ts';

// Every page asks who is signed in, so these answers are read with shapes, not zod (shape.ts).
const sessionStateReader = reader<SessionState>(shapes.sessionState);
const appConfigReader = reader<z.output<typeof appConfigSchema>>(shapes.appConfig);

const sessionQueryKey = ['auth', 'session'] as const;
/** Sign-in and sign-out in this tab: they set the auth state themselves when they finish. */
const authMutationKey = ['auth'] as const;

// The session check answers nobody with 200 (not /auth/me's 401), so an anonymous page logs no
// failed request (DESIGN §9).
async function fetchMe(): Promise<SessionUser | null> {
  const { user } = await api('GET', '/auth/session', undefined, sessionStateReader);
  remember(user);
  return user;
}

export function useAuth(): { authStatus: AuthStatus; user: SessionUser | null } {
  const me = useQuery({ queryKey: sessionQueryKey, queryFn: fetchMe, staleTime: 60_000, retry: 1 });
  // SPEC §4: 0 unknown until the first answer, then 1 signed out or 2 signed in.
  if (me.data === undefined) {
    // Offline, the session cannot be asked: the user this device last saw stands in (an owner's
    // screen opened from the service worker's copy shows; the server still checks every write).
    const offline = typeof navigator !== 'undefined' && !navigator.onLine ? rememberedUser() : null;
    if (offline) return { authStatus: AuthStatus.SignedIn, user: offline };
  }
  if (me.isPending) return { authStatus: AuthStatus.Unknown, user: null };
  if (me.data) return { authStatus: AuthStatus.SignedIn, user: me.data };
  return { authStatus: AuthStatus.SignedOut, user: null };
}

/**
 * The query of GET /config. A server-rendered page carries the answer (#sagan-config), and both
 * its render and the app's first one start with it.
 */
export const appConfigQueryKey = ['config'] as const;

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

export function useAppConfig() {
  return useQuery({
    queryKey: appConfigQueryKey,
    queryFn: () => api('GET', '/config', undefined, appConfigReader),
    staleTime: Infinity,
  });
}

function useAfterAuthChange() {
  const queryClient = useQueryClient();
  return useCallback(
    (user: SessionUser | null) => {
      remember(user);
      queryClient.setQueryData(sessionQueryKey, user);
      // Screens reload their data when the auth status changes (SPEC §4).
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'auth' });
      realtime.reconnect();
    },
    [queryClient],
  );
}

/**
 * The server ended this tab's session (sign-out in another tab or on another device, "sign out
 * everywhere", expiry): ask again who is signed in, and screens follow as after a sign-out here.
 */
export function useSessionEndFromServer(): void {
  const queryClient = useQueryClient();
  const after = useAfterAuthChange();
  useEffect(
    () =>
      realtime.onSignedOut(() => {
        // This tab's own sign-out (or sign-in over an old session) ended it: nothing to ask.
        if (queryClient.isMutating({ mutationKey: authMutationKey })) return;
        queryClient
          .fetchQuery({ queryKey: sessionQueryKey, queryFn: fetchMe, staleTime: 0 })
          .then(after, () => undefined);
      }),
    [queryClient, after],
  );
}

export function useSignIn() {
  const after = useAfterAuthChange();
  return useMutation({
    mutationKey: authMutationKey,
    mutationFn: (
      input: { kind: 'google'; credential: string } | { kind: 'local'; displayName: string },
    ) =>
      input.kind === 'google'
        ? api('POST', '/auth/google', { credential: input.credential }, sessionUserReader)
        : api('POST', '/auth/local', { displayName: input.displayName }, sessionUserReader),
    onSuccess: (user) => after(user),
  });
}

export function useSignOut() {
  const after = useAfterAuthChange();
  return useMutation({
    mutationKey: authMutationKey,
    mutationFn: () => api('POST', '/auth/logout'),
    onSuccess: () => after(null),
  });
}

/** Ends every session of this user, on every device (DESIGN §9 user menu). */
export function useSignOutEverywhere() {
  const after = useAfterAuthChange();
  return useMutation({
    mutationKey: authMutationKey,
    // Typed only: the shell has no reader for it, and the server checks its own answer.
    mutationFn: () => api<LogoutAllResponse>('POST', '/auth/logout-all'),
    onSuccess: () => after(null),
  });
}

/** Deletes the account and everything in it; the tab is then signed out (DESIGN §10). */
export function useDeleteAccount() {
  const after = useAfterAuthChange();
  return useMutation({
    mutationKey: authMutationKey,
    mutationFn: () =>
      // Typed only, as the sign-out everywhere above.
      api<z.output<typeof deleteAccountResultSchema>>('POST', '/me/delete', {
        confirm: DELETE_ACCOUNT_CONFIRMATION,
      }),
    onSuccess: () => after(null),
  });
}
