import { z } from 'zod';

// DESIGN §2: Firebase-style string keys, URL-safe. Imported keys from the original (e.g.
// '-Mx3abc_Z') must keep working, so the accepted alphabet is the URL-safe one.
export const keySchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a URL-safe key');
export type Key = z.infer<typeof keySchema>;
