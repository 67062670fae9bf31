// The OpenAPI document, completed centrally so that a route written like the others is
// documented for client generators without repeating itself: its operationId comes from its
// method and path, its security from whether it can refuse an anonymous caller (a 401 in its
// response schema), and the refusals every API route shares are added to its responses.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { API_PATH, errorSchema } from '@sagan/shared/http';
import { CSRF_HEADER } from '@sagan/shared/auth';
import type { Config } from './config.ts';

/** Every tag a route may use, once, with what it groups. */
const TAGS = [
  { name: 'auth', description: 'Signing in and out, and who is signed in' },
  {
    name: 'scorekeeping',
    description: "The phone app's scorekeeping API: the game's owner creates and scores games",
  },
  {
    name: 'scoreboards',
    description: 'Viewers: public games and tags, bookmarks, followed tags, messages',
  },
  { name: 'teamsheets', description: 'Rosters, photos, groups, publishing and privacy' },
  { name: 'playcounts', description: "Player Counter's play counts, private to their owner" },
  { name: 'ops', description: 'For load balancers and operators' },
  { name: 'account', description: "A person's own data: download it, or delete the account" },
  {
    name: 'moderation',
    description: 'Reporting a game; the operators (ADMIN_UIDS) hide or restore games',
  },
  {
    name: 'coscorers',
    description:
      'Invitations to score a game or count a play count with its owner, and revoking them',
  },
] as const;
const TAG_NAMES = new Set<string>(TAGS.map((t) => t.name));

type Requirement = Partial<Record<'googleIdToken' | 'session' | 'csrfHeader', string[]>>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who may call: a route that can answer 401 needs a user (Bearer token, or the session cookie
 * plus the CSRF header on writes); any other route is open, a cookie write still needing the
 * header.
 */
function securityFor(needsUser: boolean, write: boolean): Requirement[] {
  if (needsUser) {
    return [{ googleIdToken: [] }, write ? { session: [], csrfHeader: [] } : { session: [] }];
  }
  return write ? [{ googleIdToken: [] }, { csrfHeader: [] }] : [];
}

const word = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * `get /games/:gameKey/messages` → `getGamesMessages`; a parameter names the operation only when
 * it ends the path (`getTeamsByTeamKey`, beside `getTeams`). Two routes that would share an id
 * stop the document being built, so a clash is met in the tests, not by client authors.
 */
export function operationIdFor(method: string, apiUrl: string): string {
  const segments = apiUrl.split('/').filter(Boolean);
  const parts = segments.map((segment, i) => {
    if (segment.startsWith(':'))
      return i === segments.length - 1 ? `By${word(segment.slice(1))}` : '';
    return segment
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map(word)
      .join('');
  });
  return method.toLowerCase() + parts.join('');
}

type ResponseEntry = z.ZodType | { description: string; content: Record<string, unknown> };

const described = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

/** What a bare errorSchema in a route's responses means, when the route does not say. */
const REFUSAL_TEXT: Record<number, string> = {
  400: 'Invalid request: the error names each field that does not match the schema',
  401: 'Not signed in: no session, an ended one, or an invalid or expired Bearer token',
  403: `Refused: not yours to change, or a cookie write without ${CSRF_HEADER}: 1 or from another origin`,
  404: 'Not found (or not yours to see: its existence is not revealed)',
  409: 'Conflicts with the current state',
  413: 'Body too large',
};

interface RouteLike {
  method: string | string[];
  config?: unknown;
}

/** The swagger `transform`: jsonSchemaTransform, after the defaults above are filled in. */
const transform: NonNullable<FastifyDynamicSwaggerOptions['transform']> = (input) => {
  const { schema, url, route } = input as typeof input & { route: RouteLike };
  if (!schema || schema.hide || !url.startsWith(`${API_PATH}/`)) return jsonSchemaTransform(input);
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  const where = `${method} ${url}`;
  const tags = (schema.tags ?? []) as string[];
  if (!tags.length || tags.some((t) => !TAG_NAMES.has(t))) {
    throw new Error(
      `${where}: tags must be among ${[...TAG_NAMES].join(', ')} (declare a new one in openapi.ts)`,
    );
  }
  if (!schema.summary) throw new Error(`${where}: a summary is required`);

  const declared = (schema.response ?? {}) as Record<string, ResponseEntry>;
  const write = !SAFE_METHODS.has(method);
  const needsUser = '401' in declared;
  const responses: Record<string, ResponseEntry> = {};
  for (const [status, entry] of Object.entries(declared)) {
    const text = REFUSAL_TEXT[Number(status)];
    responses[status] = entry === errorSchema && text ? described(text) : entry;
  }
  const add = (status: number, text: string) => {
    responses[status] ??= described(text);
  };
  if (schema.body || schema.params || schema.querystring) add(400, REFUSAL_TEXT[400]!);
  add(
    401,
    needsUser
      ? REFUSAL_TEXT[401]!
      : 'A Bearer token was sent and is invalid or expired (send none to call anonymously)',
  );
  if (write) add(403, `A cookie write without ${CSRF_HEADER}: 1, or from another origin`);
  const config = route.config as { rateLimit?: unknown } | undefined;
  if (config?.rateLimit) add(429, 'Too many writes: wait for the Retry-After seconds');

  const result = jsonSchemaTransform({
    ...input,
    schema: {
      ...schema,
      operationId: schema.operationId ?? operationIdFor(method, url.slice(API_PATH.length)),
      security: schema.security ?? securityFor(needsUser, write),
      response: responses,
    },
  });
  // Every JSON answer has a schema; a route without one answers bytes (photos, QR codes).
  if (!Object.keys(declared).some((status) => status.startsWith('2'))) {
    (result.schema as { response: Record<string, unknown> }).response['200'] = {
      description: 'The file (see the summary)',
      content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  return result;
};

/** Refuses a document in which two operations share an id. */
const transformObject: NonNullable<FastifyDynamicSwaggerOptions['transformObject']> = (input) => {
  const doc = 'openapiObject' in input ? input.openapiObject : input.swaggerObject;
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      const id = (op as { operationId?: string }).operationId;
      if (!id) continue;
      const other = seen.get(id);
      if (other) {
        throw new Error(`operationId ${id} names both ${other} and ${method} ${path}: set one`);
      }
      seen.set(id, `${method} ${path}`);
    }
  }
  return doc;
};

export function swaggerOptions(config: Config, cookieName: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      info: {
        title: 'Sagan API',
        description:
          'Live scoreboards, team sheets and play counts. Cookie sessions for the web app ' +
          `(state-changing requests carry ${CSRF_HEADER}: 1); companion apps send ` +
          '`Authorization: Bearer <Google ID token>`.',
        version: '1.0.0',
        // The project declares no licence of its own: nothing is granted beyond using the API.
        license: { name: 'All rights reserved', url: `${config.publicUrl ?? ''}${API_PATH}/docs` },
      },
      servers: [{ url: config.publicUrl ?? '/', description: 'This Sagan server' }],
      tags: TAGS.map((t) => ({ ...t })),
      components: {
        securitySchemes: {
          googleIdToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'Google ID token',
            description: 'Companion apps: the Google ID token, refreshed and retried on 401',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: cookieName,
            description: 'The web app: the session cookie set by sign-in',
          },
          csrfHeader: {
            type: 'apiKey',
            in: 'header',
            name: CSRF_HEADER,
            description: `Every write not sent with a Bearer token carries ${CSRF_HEADER}: 1`,
          },
        },
      },
    },
    transform,
    transformObject,
  };
}
