// What every page's shell needs of sign-in, zod-free so it loads no schema (auth.ts has those).
import type { SessionUser } from './auth.ts';

// SPEC §3 Session state.
export const AuthStatus = { Unknown: 0, SignedOut: 1, SignedIn: 2 } as const;
export type AuthStatus = (typeof AuthStatus)[keyof typeof AuthStatus];

/** SPEC §2 top menu: the Login item shows the display name, 'Unknown Name' if missing. */
export function menuName(user: SessionUser): string {
  return user.displayName?.trim() ? user.displayName : 'Unknown Name';
}

/** The header every cookie-authenticated state-changing request carries (DESIGN §6). */
export const CSRF_HEADER = 'x-sagan-request';
