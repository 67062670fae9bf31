import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

export const CLIENT_ID = 'sagan-test.apps.googleusercontent.com';
const ISSUER = 'https://accounts.google.com';

interface TokenClaims {
  aud?: string | string[];
  azp?: string;
  /** Seconds from now. */
  expiresIn?: number;
}

/**
 * Google's servers, stood in for (the one thing tests do not run for real): a JWKS endpoint
 * serving a key this process signs phone apps' ID tokens with.
 */
export async function googleStandIn() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const key: CryptoKey = privateKey;
  return {
    google: { clientId: CLIENT_ID, jwksUrl: `http://127.0.0.1:${port}/certs`, issuers: [ISSUER] },
    token(sub: string, { aud = CLIENT_ID, azp, expiresIn = 3600 }: TokenClaims = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ name: `Phone ${sub}`, ...(azp ? { azp } : {}) })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setAudience(aud)
        .setIssuedAt(now - 10)
        .setExpirationTime(now + expiresIn)
        .sign(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
