import { useEffect } from 'react';
import { BASE_PATH } from '@sagan/shared/routes';

/** The input screens' paths: the worker's scopes (DESIGN §10). Fans' pages stay outside. */
const SCOPES = [`${BASE_PATH}/scoregame/`, `${BASE_PATH}/playcount/`];

/**
 * Registers the input screens' service worker (public/sw.js), once per scope, from the input
 * screens and the forms that create their games and counts (so it is often installed before
 * Create is tapped): one online visit lets both screens open offline, as the worker caches the
 * whole app shell when it installs. It controls only pages opened after that (no claim), so the
 * page that registered it keeps talking to the network directly.
 */
export function useServiceWorker(): void {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    for (const scope of SCOPES) {
      // Without it the screen works, only not offline after a reload.
      navigator.serviceWorker.register(`${BASE_PATH}/sw.js`, { scope }).catch(() => undefined);
    }
  }, []);
}
