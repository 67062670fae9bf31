import { usePageTitle } from './use-page-title.ts';

/** A screen whose feature has not landed yet says so plainly. */
export function PlaceholderPage({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <section className="page">
      <h1>{title}</h1>
      <p className="muted">This screen is being built and will appear here soon.</p>
    </section>
  );
}
