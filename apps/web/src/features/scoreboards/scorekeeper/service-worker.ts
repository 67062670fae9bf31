import { useEffect } from 'react';
import { BASE_PATH } from '@sagan/shared/routes';

/**
 * Registers the scorekeeper's service worker (public/sw.js), from the owner's screens only. Its
 * scope is the scorekeeper's path, so it never controls the public, server-rendered pages:
 * viewers get every page from the server as before.
 */
export function useServiceWorker(): void {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .register(`${BASE_PATH}/sw.js`, { scope: `${BASE_PATH}/scoregame/` })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // What this visit loaded before the worker was there: kept, so the next open works
        // offline (the worker then keeps what goes through it).
        const own = (url: string) =>
          url.startsWith(`${location.origin}${BASE_PATH}/`) && !url.includes(`${BASE_PATH}/api/`);
        const urls = performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter(own);
        if (location.pathname.startsWith(`${BASE_PATH}/scoregame/`)) urls.push(location.href);
        registration.active?.postMessage({ type: 'keep', urls });
      })
      .catch(() => undefined); // without it the screen works, only not offline after a reload
  }, []);
}
