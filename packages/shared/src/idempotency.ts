import { z } from 'zod';

/**
 * DESIGN §9: a write carrying this header is applied at most once per signed-in user and key
 * (kept 24 h); sending it again returns the first answer and changes nothing. A client makes
 * one key per intent and sends the same request with it until it gets an answer. Only
 * successful answers are remembered: after a refusal (e.g. 409) the key may be used again
 * with a rebuilt request.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'Idempotency-Key is 1–100 letters, digits, _ or -');

/** The `headers` schema of a route that takes an Idempotency-Key (other headers pass). */
export const idempotentHeadersSchema = z.looseObject({
  'idempotency-key': idempotencyKeySchema.optional(),
});
