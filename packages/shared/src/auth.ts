import { z } from 'zod';
import { safeText } from './text.ts';

export const displayNameSchema = safeText().trim().min(1, 'Please enter a name').max(60);

export const googleSignInSchema = z.object({ credential: z.string().min(10).max(8192) });
export const localSignInSchema = z.object({ displayName: displayNameSchema });

export const sessionUserSchema = z.object({
  uid: z.string(),
  displayName: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** Who this browser is signed in as, or null: asked by the web app on every page (DESIGN §9). */
export const sessionStateSchema = z.object({ user: sessionUserSchema.nullable() });
export type SessionState = z.infer<typeof sessionStateSchema>;

/** POST /api/auth/logout-all: how many sessions of the user ended (this one included). */
export const logoutAllResponseSchema = z.object({ ok: z.literal(true), ended: z.number().int() });
export type LogoutAllResponse = z.infer<typeof logoutAllResponseSchema>;

/**
 * The outside links of the menu, footer and promos: each set by the operator, or null, and
 * then not shown (a placeholder host would be a dead link).
 */
export const externalLinksSchema = z.object({
  about: z.string().nullable(),
  apps: z.string().nullable(),
  blog: z.string().nullable(),
  social: z.string().nullable(),
  promo: z.string().nullable(),
  playerCounter: z.string().nullable(),
});
export type ExternalLinks = z.infer<typeof externalLinksSchema>;

/** GET /api/config: what the Login screen offers, the footer's contact, the operator, links. */
export const appConfigSchema = z.object({
  googleClientId: z.string().nullable(),
  localSignIn: z.boolean(),
  supportEmail: z.string(),
  /** Who runs this site, named on the Privacy and Terms pages. */
  operator: z.object({ name: z.string().nullable(), contact: z.string() }),
  links: externalLinksSchema,
});
export type AppConfig = z.infer<typeof appConfigSchema>;

export { AuthStatus, CSRF_HEADER, menuName } from './auth-status.ts';
