import { useCallback, useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AuthStatus,
  authConfigSchema,
  sessionUserSchema,
  type SessionUser,
} from '@sagan/shared/auth';
import { api, ApiError } from '../../lib/api.ts';
import { realtime } from '../../lib/realtime.ts';

export const meQueryKey = ['auth', 'me'] as const;
/** Sign-in and sign-out in this tab: they set the auth state themselves when they finish. */
const authMutationKey = ['auth'] as const;

async function fetchMe(): Promise<SessionUser | null> {
  try {
    return await api('GET', '/auth/me', undefined, sessionUserSchema);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function useAuth(): { authStatus: AuthStatus; user: SessionUser | null } {
  const me = useQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 60_000, retry: 1 });
  // SPEC §4: 0 unknown until the first answer, then 1 signed out or 2 signed in.
  if (me.isPending) return { authStatus: AuthStatus.Unknown, user: null };
  if (me.data) return { authStatus: AuthStatus.SignedIn, user: me.data };
  return { authStatus: AuthStatus.SignedOut, user: null };
}

const appConfigSchema = authConfigSchema.extend({ supportEmail: z.string() });

export function useAppConfig() {
  return useQuery({
    queryKey: ['config'],
    queryFn: () => api('GET', '/config', undefined, appConfigSchema),
    staleTime: Infinity,
  });
}

function useAfterAuthChange() {
  const queryClient = useQueryClient();
  return useCallback(
    (user: SessionUser | null) => {
      queryClient.setQueryData(meQueryKey, user);
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
          .fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 })
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
        ? api('POST', '/auth/google', { credential: input.credential }, sessionUserSchema)
        : api('POST', '/auth/local', { displayName: input.displayName }, sessionUserSchema),
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
