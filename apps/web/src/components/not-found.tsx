import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { usePageTitle } from './use-page-title.ts';

/** DESIGN §8: a missing game, sheet or player gets a friendly page, not an empty area. */
export function NotFound({ what = 'page' }: { what?: string }) {
  usePageTitle('Not found');
  return (
    <section className="page narrow not-found">
      <h1>Not found</h1>
      <p>We could not find this {what}. It may have been removed, or the link is mistyped.</p>
      <Link className="btn" to={pathTo('dashboard')}>
        Go to the home page
      </Link>
    </section>
  );
}

export default function NotFoundPage() {
  return <NotFound />;
}
