import { sha256 } from '../lib/keys.ts';

/**
 * The uid local sign-in gives a display name: the same name (in any case) signs in as the same
 * local user, so their data is there next time. Operators are named by it in ADMIN_UIDS.
 */
export const localUid = (displayName: string): string =>
  `local-${sha256(displayName.toLowerCase()).slice(0, 20)}`;
