import { useEffect } from 'react';

/** Public sheets carry children's names: reachable by link, never listed by search engines. */
export function useNoIndex(): void {
  useEffect(() => {
    // The server already wrote one into the page it served for this URL: keep one.
    if (document.head.querySelector('meta[name="robots"]')) return;
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}
