// A local user of a Sagan server, for the scripts and benchmarks that drive a built server
// through its API as the phone apps would.
import { API_PATH } from '@sagan/shared/http';

/** Calls to a Sagan server's API with the given headers; a refusal throws with its body. */
export function apiClient(base: string, headers: Record<string, string>) {
  return {
    async call<T = unknown>(method: string, p: string, body?: unknown): Promise<T> {
      const r = await fetch(`${base}${API_PATH}${p}`, {
        method,
        headers: {
          ...headers,
          // Only with a body: the server refuses an empty one that says it is JSON.
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
      return (r.status === 204 ? undefined : await r.json()) as T;
    },
  };
}

/**
 * Signs a local user in: its session cookie (for a socket of its own), and calls to the API
 * with the cookie and the CSRF header. A refusal throws with its body.
 */
export async function signInLocal(base: string, displayName: string) {
  const res = await fetch(`${base}${API_PATH}/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sagan-request': '1' },
    body: JSON.stringify({ displayName }),
  });
  if (!res.ok) throw new Error(`local sign-in: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { cookie, ...apiClient(base, { 'x-sagan-request': '1', cookie }) };
}
