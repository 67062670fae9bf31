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
      .catch(() => undefined); // without it the screen works, only not offline after a reload
  }, []);
}
