import { API_PATH } from '@sagan/shared/http-paths';
import { CSRF_HEADER } from '@sagan/shared/auth-status';
import type { Reader } from './shape.ts';

/** A failed call, with a message fit to show the user (the server's, or a generic one). */
class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TOO_MANY = 'Too many changes at once. Please wait a minute and try again.';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * With a schema (a shared zod schema, or a shape reader on a viewer's first load, shape.ts) the
 * response is parsed by it; without one it is typed only, for code on a first-load path that
 * has no reader for it: the server already checks every response against the same shared
 * schema (fastify-type-provider-zod) (docs/decisions/0011).
 */
export async function api<T>(
  method: Method,
  path: string,
  body: unknown,
  schema: Reader<T>,
  idempotencyKey?: string,
): Promise<T>;
export async function api<T = unknown>(method: Method, path: string, body?: unknown): Promise<T>;
export async function api(
  method: Method,
  path: string,
  body?: unknown,
  schema?: Reader<unknown>,
  idempotencyKey?: string,
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers[CSRF_HEADER] = '1';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`${API_PATH}${path}`, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'Could not reach the server. Check your connection and try again.');
  }
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: handled below by status.
  }
  if (!res.ok) {
    // A rate limit's own words ("Rate limit exceeded, retry in 59 seconds") are for programs.
    const message =
      res.status === 429
        ? TOO_MANY
        : json && typeof json === 'object' && 'error' in json && typeof json.error === 'string'
          ? json.error
          : 'Something went wrong. Please try again.';
    throw new ApiError(res.status, message);
  }
  return schema ? schema.parse(json) : json;
}
