import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { pathTo } from '@sagan/shared/routes';
import { useAppConfig } from '../../lib/auth.ts';
import { usePageTitle } from '../../components/use-page-title.ts';
import './legal.css';

export interface Operator {
  /** Null when the operator set no name: the pages word it without one. */
  name: string | null;
  contact: string;
}

/**
 * The frame of the Privacy and Terms pages: who runs the site (OPERATOR_NAME, OPERATOR_EMAIL)
 * comes from the server, so each deployment names itself.
 */
export function LegalPage({
  title,
  children,
}: {
  title: string;
  children: (operator: Operator) => ReactNode;
}) {
  usePageTitle(title);
  const config = useAppConfig();
  const operator = config.data?.operator;
  return (
    <article className="page legal-page">
      <h1>{title}</h1>
      {operator ? (
        children(operator)
      ) : config.isError ? (
        <p className="form-error" role="alert">
          This page could not be loaded. Please reload it.
        </p>
      ) : (
        <p className="loading">Loading…</p>
      )}
      <p className="legal-links">
        <Link to={pathTo('privacy')}>Privacy</Link> ·{' '}
        <Link to={pathTo('termsOfService')}>Terms of Service</Link> ·{' '}
        <Link to={pathTo('dashboard')}>Home</Link>
      </p>
    </article>
  );
}

export function ContactLink({ operator }: { operator: Operator }) {
  return <a href={`mailto:${operator.contact}`}>{operator.contact}</a>;
}
