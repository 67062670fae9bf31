/**
 * The web's one generator of ids and Idempotency-Keys. getRandomValues, not randomUUID: the
 * latter needs a secure context, and a club's LAN address over plain http is not one. In a
 * module of its own so a screen that only needs a key does not load the outbox.
 */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
