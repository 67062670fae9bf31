import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, okSchema } from '@sagan/shared/http';
import {
  googleSignInSchema,
  localSignInSchema,
  sessionUserSchema,
  sessionStateSchema,
  appConfigSchema,
  logoutAllResponseSchema,
  type AppConfig,
} from '@sagan/shared/auth';
import type { Config } from '../../config.ts';
import { TokenError } from '../../auth/google.ts';
import { createSession, revokeAllSessions, revokeSession } from '../../auth/sessions.ts';
import { upsertUserOnSignIn } from './repo.ts';
import { HttpError, notFound, unauthorized } from '../../lib/http-errors.ts';
import { localUid } from '../../auth/local-uid.ts';
import { requireUser } from '../../plugins/auth.ts';
import { isLocalRequest } from '../../lib/hosts.ts';

/**
 * GET /config's answer to this request: also written into every server-rendered page, so its
 * first render already shows the operator's links (the dashboard's Apps card) and nothing moves
 * when the app takes over.
 */
export function appConfigFor(config: Config, req: FastifyRequest): AppConfig {
  return {
    googleClientId: config.google.clientId ?? null,
    localSignIn: localSignInFor(config, req),
    supportEmail: config.supportEmail,
    operator: config.operator,
    links: config.links,
  };
}

/** DESIGN §3: decided per request, for the person at this machine (or everyone, if forced). */
const localSignInFor = (config: Config, req: FastifyRequest) =>
  config.localSignInAnywhere || (config.localSignIn && isLocalRequest(req, config.trustProxy));

/** A Google ID token is 1-2 KB; a display name far less. Anyone may send these bodies. */
const SIGN_IN_BODY_BYTES = 16 * 1024;

export default async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, db } = app;
  const signInLimit = {
    max: Math.ceil(20 * config.rateLimitFactor),
    timeWindow: '1 minute',
  };

  const cookieAttributes = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
  } as const;

  /** Ends a session in the store, then its open sockets on every node. */
  async function endSession(token: string): Promise<void> {
    const id = await revokeSession(db, token);
    if (id) await app.sessionWatch.ended([id]);
  }

  async function startSession(
    reply: FastifyReply,
    previousToken: string | null,
    user: { uid: string; displayName: string | undefined; email?: string | undefined },
  ) {
    await upsertUserOnSignIn(db, user);
    // A new session id on every sign-in, and the old one dies (no session fixation).
    if (previousToken) await endSession(previousToken);
    const token = await createSession(db, user.uid, config.sessionDays);
    reply.setCookie(app.sessionCookieName, token, {
      ...cookieAttributes,
      maxAge: config.sessionDays * 86400,
    });
    return { uid: user.uid, displayName: user.displayName ?? null };
  }

  app.get(
    '/config',
    {
      schema: {
        tags: ['auth'],
        summary:
          'What the Login screen offers (Google client id, local sign-in), the support e-mail, ' +
          'the operator and the outside links',
        response: { 200: appConfigSchema },
      },
    },
    async (req) => appConfigFor(config, req),
  );

  app.post(
    '/auth/google',
    {
      config: { rateLimit: signInLimit, anonymousWrites: true },
      bodyLimit: SIGN_IN_BODY_BYTES,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a Google ID token (from Google Identity Services)',
        body: googleSignInSchema,
        // Its 401 is a rejected token, not a missing user: anyone may try to sign in.
        security: [{ csrfHeader: [] }],
        response: { 200: sessionUserSchema, 401: errorSchema },
      },
    },
    async (req, reply) => {
      if (!app.googleVerifier) throw new HttpError(404, 'Google sign-in is not configured');
      try {
        const identity = await app.googleVerifier(req.body.credential);
        return await startSession(reply, req.sessionToken, identity);
      } catch (err) {
        if (err instanceof TokenError) {
          req.log.info({ reason: err.message }, 'google token refused');
          throw new HttpError(401, 'Google sign-in failed. Please try again.');
        }
        throw err;
      }
    },
  );

  app.post(
    '/auth/local',
    {
      config: { rateLimit: signInLimit, anonymousWrites: true },
      bodyLimit: SIGN_IN_BODY_BYTES,
      schema: {
        tags: ['auth'],
        summary:
          'Local sign-in by display name (only from this machine on a server without Google, ' +
          'or everywhere with ALLOW_LOCAL_SIGNIN)',
        body: localSignInSchema,
        response: { 200: sessionUserSchema },
      },
    },
    async (req, reply) => {
      if (!localSignInFor(config, req)) throw notFound();
      const displayName = req.body.displayName;
      return startSession(reply, req.sessionToken, { uid: localUid(displayName), displayName });
    },
  );

  app.post(
    '/auth/logout',
    {
      // A dead session's page must still be able to clear its cookie.
      config: { anonymousWrites: true },
      bodyLimit: SIGN_IN_BODY_BYTES,
      schema: {
        tags: ['auth'],
        summary: 'Sign out: the session dies on the server',
        response: { 200: okSchema },
      },
    },
    async (req, reply) => {
      if (req.sessionToken) await endSession(req.sessionToken);
      // Browsers ignore a Set-Cookie for a __Host- name without Secure: clear it with the same
      // attributes it was set with, or the dead cookie lingers.
      reply.clearCookie(app.sessionCookieName, cookieAttributes);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/logout-all',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign out everywhere: every session of the user ends, and their open pages lose private live data',
        response: { 200: logoutAllResponseSchema, 401: errorSchema },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const ids = await revokeAllSessions(db, user.uid);
      await app.sessionWatch.signedOutEverywhere(user.uid, ids);
      reply.clearCookie(app.sessionCookieName, cookieAttributes);
      return { ok: true as const, ended: ids.length };
    },
  );

  app.get(
    '/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'Who is signed in (401 when nobody)',
        response: { 200: sessionUserSchema, 401: errorSchema },
      },
    },
    async (req) => {
      if (!req.user) throw unauthorized();
      return req.user;
    },
  );

  app.get(
    '/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Who is signed in, or null: the web app asks on every page, so no 401',
        response: { 200: sessionStateSchema },
      },
    },
    async (req, reply) => {
      // The answer changes with the cookie, which a shared cache does not key on.
      reply.header('cache-control', 'no-store');
      return { user: req.user };
    },
  );
}
