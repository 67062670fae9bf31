import crypto from 'node:crypto';

/** DESIGN §2: URL-safe, unguessable keys (120 bits), never sequential ids. */
export function newKey(): string {
  return crypto.randomBytes(15).toString('base64url');
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}
