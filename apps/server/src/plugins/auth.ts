import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER, type SessionUser } from '@sagan/shared/auth';
import { API_PATH } from '@sagan/shared/http';
import { createGoogleVerifier, TokenError, type GoogleVerifier } from '../auth/google.ts';
import { ensureUser, sessionUser } from '../auth/sessions.ts';
import { HttpError, unauthorized } from '../lib/http-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes writes from callers who are not signed in (signing in, signing out).
     * Every other write of the API is refused before its body is read when nobody is signed in.
     */
    anonymousWrites?: boolean;
    /** The route's Bearer token is its own (the metrics scraper's), not a Google sign-in. */
    ownBearer?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    viaBearer: boolean;
    /** When the Bearer token this request came with expires (ms since the epoch). */
    bearerExpiresAt: number | null;
    sessionToken: string | null;
  }
  interface FastifyInstance {
    googleVerifier: GoogleVerifier | null;
    sessionCookieName: string;
    isOwnOrigin(req: FastifyRequest, origin: string): boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const API_PREFIX = `${API_PATH}/`;

/**
 * Whether a request is for the API, judged as the router judged it: by the route it matched,
 * or, for none, by the decoded path. The raw URL would let `/apps/sagan/%61pi/...` through.
 */
function isApiRequest(req: FastifyRequest): boolean {
  const route = req.routeOptions.url;
  if (route !== undefined) return route.startsWith(API_PREFIX);
  const path = req.url.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true; // undecodable: refused below rather than guessed at
  }
  return decoded.replace(/\/{2,}/g, '/').startsWith(API_PREFIX);
}
const MAX_KNOWN_UIDS = 100_000;

/** __Host- binds the cookie to our exact origin (no Domain, Path=/), only possible when Secure. */
export function sessionCookieName(config: { cookieSecure: boolean }): string {
  return config.cookieSecure ? '__Host-sagan_session' : 'sagan_session';
}

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

export default fp(
  async (app) => {
    const { config, db } = app;
    app.decorate(
      'googleVerifier',
      config.google.clientId
        ? createGoogleVerifier({
            clientId: config.google.clientId,
            jwksUrl: config.google.jwksUrl,
            issuers: config.google.issuers,
          })
        : null,
    );
    app.decorate('sessionCookieName', sessionCookieName(config));
    app.decorate('isOwnOrigin', (req: FastifyRequest, origin: string) => {
      if (config.publicUrl) return origin === config.publicUrl;
      // req.host: the Host header, or a trusted proxy's X-Forwarded-Host (checked by hosts.ts).
      const host = req.host;
      return !!host && (origin === `http://${host}` || origin === `https://${host}`);
    });

    const knownBearerUids = new Set<string>();

    app.decorateRequest('user', null);
    app.decorateRequest('viaBearer', false);
    app.decorateRequest('bearerExpiresAt', null);
    app.decorateRequest('sessionToken', null);

    app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      const authz = req.headers.authorization;
      if (authz?.startsWith('Bearer ') && !req.routeOptions.config.ownBearer) {
        if (!app.googleVerifier) throw new HttpError(401, 'Google sign-in is not configured');
        try {
          const identity = await app.googleVerifier(authz.slice(7).trim());
          // Phone apps send a token with every request; the users row is written once per
          // process, not on every score change.
          if (!knownBearerUids.has(identity.uid)) {
            await ensureUser(db, identity);
            if (knownBearerUids.size >= MAX_KNOWN_UIDS) knownBearerUids.clear();
            knownBearerUids.add(identity.uid);
          }
          req.user = { uid: identity.uid, displayName: identity.displayName ?? null };
          req.viaBearer = true;
          req.bearerExpiresAt = identity.expiresAt;
        } catch (err) {
          if (err instanceof TokenError) throw new HttpError(401, 'Invalid sign-in token');
          throw err;
        }
        return;
      }
      const token = req.cookies[app.sessionCookieName];
      if (token) {
        req.sessionToken = token;
        req.user = await sessionUser(db, token, config.sessionIdleDays, app.sessionWatch.cache);
      }
      if (!SAFE_METHODS.has(req.method) && isApiRequest(req)) {
        // DESIGN §6: a non-safelisted header cannot be sent cross-site without CORS consent.
        if (req.headers[CSRF_HEADER] !== '1') {
          return reply.code(403).send({ error: 'Missing X-Sagan-Request header' });
        }
        const origin = req.headers.origin;
        if (origin && !app.isOwnOrigin(req, origin)) {
          return reply.code(403).send({ error: 'Cross-origin request refused' });
        }
      }
    });

    // Nobody's body is parsed for nothing: an anonymous 11 MB body used to be read, then
    // refused by the handler. After every onRequest hook (the write limits count anonymous
    // callers by address), before the body is read. A route unknown to the router reads none.
    app.addHook('preParsing', async (req, reply) => {
      if (
        !req.user &&
        !SAFE_METHODS.has(req.method) &&
        req.routeOptions.url !== undefined &&
        isApiRequest(req) &&
        !req.routeOptions.config.anonymousWrites
      ) {
        // A thrown refusal: a reply sent from this hook would be taken for the body's stream.
        reply.header('connection', 'close');
        throw unauthorized();
      }
    });
  },
  { name: 'auth', dependencies: ['db', 'realtime'] },
);
