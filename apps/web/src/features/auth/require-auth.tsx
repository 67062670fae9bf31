import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { AuthStatus } from '@sagan/shared/auth-status';
import { pathTo } from '@sagan/shared/routes';
import { useAuth } from '../../lib/auth.ts';
import { Loading } from '../../components/loading.tsx';

/** SPEC §2 navigation guard: convenience only; the server enforces access itself. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { authStatus } = useAuth();
  const location = useLocation();
  if (authStatus === AuthStatus.Unknown) return <Loading />;
  if (authStatus === AuthStatus.SignedOut) {
    const next = location.pathname + location.search;
    return <Navigate to={`${pathTo('Login')}?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}
