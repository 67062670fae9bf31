import { z } from 'zod';

/**
 * Text that JSON can carry but PostgreSQL cannot store: U+0000 (text and jsonb refuse it) and a
 * lone UTF-16 surrogate (no UTF-8 form; often half an emoji cut by a careless client). Found
 * by the fuzzer as 500s; refused here with a clear 400 instead.
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE =
  'contains a character that cannot be saved (a NUL or half of an emoji)';

export function isStorableText(s: string): boolean {
  return !UNSTORABLE.test(s);
}

/** z.string() that refuses unstorable characters; chain .trim(), .min(), .max() as usual. */
export function safeText(): z.ZodString {
  return z.string().refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE });
}
