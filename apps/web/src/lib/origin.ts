import { createContext, useContext } from 'react';

/**
 * The origin the page is served from. The browser knows it; a server render (no `location`
 * there) is given the request's, so a page that shows its own full link renders the same
 * markup on both sides.
 */
export const OriginContext = createContext<string | null>(null);

export function useOrigin(): string {
  return useContext(OriginContext) ?? location.origin;
}
