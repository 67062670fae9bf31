import { Link, useLocation } from 'react-router';
import { pathTo } from '@sagan/shared/routes';

/** A link to Login that comes back here afterwards. */
export function SignInLink({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  const next = location.pathname + location.search;
  return <Link to={`${pathTo('Login')}?next=${encodeURIComponent(next)}`}>{children}</Link>;
}
