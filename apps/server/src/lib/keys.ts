import crypto from 'node:crypto';
import { keySchema } from '@sagan/shared/keys';

/** DESIGN §2: URL-safe, unguessable keys (120 bits), never sequential ids. */
export function newKey(): string {
  return crypto.randomBytes(15).toString('base64url');
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** A key as a page's path names it (percent-encoded or not); null when it is not a key. */
export function keyInPath(raw: string | undefined): string | null {
  if (!raw) return null;
  let key: string;
  try {
    key = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return keySchema.safeParse(key).success ? key : null;
}
