import type { ReactNode } from 'react';
import type { ExternalLinks } from '@sagan/shared/auth';
import { useAppConfig } from '../lib/auth.ts';

/**
 * A link to a site the operator configured (ABOUT_URL, APPS_URL, ...). Unset, it is not shown:
 * a placeholder address would be a dead link. Inside a sentence (`inline`) its words stay, as
 * plain text.
 */
export function ExternalLink({
  to,
  className,
  inline = false,
  children,
}: {
  to: keyof ExternalLinks;
  className?: string;
  inline?: boolean;
  children: ReactNode;
}) {
  const href = useAppConfig().data?.links[to];
  if (!href) return inline ? <>{children}</> : null;
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Whether the operator configured this outside link (for a list item around it). */
export function useHasExternalLink(to: keyof ExternalLinks): boolean {
  return Boolean(useAppConfig().data?.links[to]);
}
