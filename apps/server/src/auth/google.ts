import { createRemoteJWKSet, jwtVerify, errors as joseErrors } from 'jose';

interface GoogleIdentity {
  uid: string;
  email: string | undefined;
  displayName: string | undefined;
  /** When the token expires (ms since the epoch): a socket opened with it ends then. */
  expiresAt: number;
}

export interface GoogleVerifierOptions {
  clientId: string;
  jwksUrl: string;
  issuers: string[];
}

export type GoogleVerifier = (idToken: string) => Promise<GoogleIdentity>;

export class TokenError extends Error {}

/** Verified tokens remembered at most (a phone app sends the same token for up to an hour). */
const MAX_REMEMBERED = 10_000;

/**
 * Verifies a Google ID token: signature against the JWKS (jose caches the key set and refetches
 * it on an unknown kid), audience = our client id, issuer, expiry.
 */
export function createGoogleVerifier(opts: GoogleVerifierOptions): GoogleVerifier {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl), { cooldownDuration: 30_000 });
  // A phone app sends its token with every score change: the signature check (RSA) is done once
  // per token, and the same string is then trusted until it expires. Nothing else could make a
  // verified Google ID token invalid before its expiry (they cannot be revoked).
  const remembered = new Map<string, GoogleIdentity>();
  return async (idToken) => {
    const known = remembered.get(idToken);
    if (known) {
      if (known.expiresAt > Date.now()) return known;
      remembered.delete(idToken);
    }
    const identity = await verify(idToken);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(idToken, identity);
    return identity;
  };

  async function verify(idToken: string): Promise<GoogleIdentity> {
    try {
      const { payload } = await jwtVerify(idToken, jwks, {
        audience: opts.clientId,
        issuer: opts.issuers,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: 5,
      });
      if (typeof payload.sub !== 'string' || !payload.sub) throw new TokenError('no subject');
      // jose accepts an audience list that merely includes ours: a token made for another
      // client, naming us among others, would sign its holder in here. Ours alone, or ours as
      // the party it was issued to.
      const aud = payload.aud;
      const oursAlone = aud === opts.clientId || (Array.isArray(aud) && aud.length === 1);
      if (!oursAlone && payload.azp !== opts.clientId) throw new TokenError('audience');
      return {
        // The Google subject is stable per account, so web and phone apps share one uid.
        uid: payload.sub,
        email: typeof payload.email === 'string' ? payload.email : undefined,
        displayName: typeof payload.name === 'string' ? payload.name : undefined,
        // exp is a required claim; the clock tolerance is not extended to remembered tokens.
        expiresAt: Number(payload.exp) * 1000,
      };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof joseErrors.JOSEError) throw new TokenError(err.code);
      throw err;
    }
  }
}
