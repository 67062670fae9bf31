import { createRemoteJWKSet, jwtVerify, errors as joseErrors } from 'jose';

interface GoogleIdentity {
  uid: string;
  email: string | undefined;
  displayName: string | undefined;
}

export interface GoogleVerifierOptions {
  clientId: string;
  jwksUrl: string;
  issuers: string[];
}

export type GoogleVerifier = (idToken: string) => Promise<GoogleIdentity>;

export class TokenError extends Error {}

/**
 * Verifies a Google ID token: signature against the JWKS (jose caches the key set and refetches
 * it on an unknown kid), audience = our client id, issuer, expiry.
 */
export function createGoogleVerifier(opts: GoogleVerifierOptions): GoogleVerifier {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl), { cooldownDuration: 30_000 });
  return async (idToken) => {
    try {
      const { payload } = await jwtVerify(idToken, jwks, {
        audience: opts.clientId,
        issuer: opts.issuers,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: 5,
      });
      if (typeof payload.sub !== 'string' || !payload.sub) throw new TokenError('no subject');
      return {
        // The Google subject is stable per account, so web and phone apps share one uid.
        uid: payload.sub,
        email: typeof payload.email === 'string' ? payload.email : undefined,
        displayName: typeof payload.name === 'string' ? payload.name : undefined,
      };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof joseErrors.JOSEError) throw new TokenError(err.code);
      throw err;
    }
  };
}
