import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ExternalLinks } from '@sagan/shared/auth';
import { isLoopbackName, parseTrustProxy, type TrustProxy } from './lib/hosts.ts';
import { resolveLogFormat, type LogFormat } from './logging.ts';
import type { PgliteThread } from './db/db.ts';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An outside link: http(s) only (never javascript:), empty meaning not set. */
const externalUrl = z
  .union([z.literal('').transform(() => undefined), z.url({ protocol: /^https?$/ })])
  .optional();

/** A comma-separated list, each entry trimmed, empty ones dropped. */
const commaList = (fallback = '') =>
  z
    .string()
    .default(fallback)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    );

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  // A URL here (PGlite's own "memory://", say) would quietly become a folder named after it
  // in the working directory.
  DATA_DIR: z
    .string()
    .min(1)
    .refine((v) => !/^[a-z][a-z\d+.-]*:\/\//i.test(v), 'is a folder, not a URL')
    .default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUERS: commaList('https://accounts.google.com,accounts.google.com'),
  ALLOW_LOCAL_SIGNIN: boolish.default(false),
  COOKIE_SECURE: boolish.optional(),
  DEMO: boolish.default(false),
  SIMULATE: boolish.default(false),
  RATE_LIMIT_FACTOR: z.coerce.number().positive().default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  NODE_ENV: z.string().optional(),
  WEB_DIST: z.string().optional(),
  SUPPORT_EMAIL: z.email().default('support@sagan.example'),
  OPERATOR_NAME: z.string().trim().min(1).max(120).optional(),
  OPERATOR_EMAIL: z.email().optional(),
  ABOUT_URL: externalUrl,
  APPS_URL: externalUrl,
  BLOG_URL: externalUrl,
  SOCIAL_URL: externalUrl,
  PROMO_URL: externalUrl,
  PLAYER_COUNTER_URL: externalUrl,
  SESSION_DAYS: z.coerce.number().int().positive().max(365).default(30),
  SESSION_IDLE_DAYS: z.coerce.number().int().positive().max(365).default(14),
  TRUST_PROXY: z.string().optional(),
  ALLOWED_HOSTS: commaList().pipe(
    z.array(
      z
        .string()
        .regex(
          /^(?:\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9_.-]+)(?::\d{1,5})?$/,
          'each entry must be a host name or address, optionally with :port',
        ),
    ),
  ),
  BODY_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(20),
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(500),
  REALTIME_COALESCE_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((s) => s || undefined)
    .pipe(z.string().min(16, 'must be at least 16 characters (a random token)').optional()),
  ADMIN_UIDS: commaList(),
  PGLITE_THREAD: z.enum(['auto', 'worker', 'main']).default('auto'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  google: { clientId: string | undefined; jwksUrl: string; issuers: string[] };
  localSignIn: boolean;
  cookieSecure: boolean;
  demo: boolean;
  simulate: boolean;
  rateLimitFactor: number;
  logLevel: string;
  /** JSON lines, or compact readable lines for a developer's terminal (logging.ts). */
  logFormat: LogFormat;
  webDist: string;
  supportEmail: string;
  /** Who runs this site and how to reach them (the Privacy and Terms pages name them). */
  /** name: null when OPERATOR_NAME is unset; the pages then word it without one. */
  operator: { name: string | null; contact: string };
  /** Outside links (menu, footer, promos); unset ones are not shown. */
  links: ExternalLinks;
  sessionDays: number;
  /** A session also ends after this many days without a request. */
  sessionIdleDays: number;
  /** Proxies whose X-Forwarded-* headers count (DESIGN §9); never `true`. */
  trustProxy: TrustProxy;
  /** Host names (ALLOWED_HOSTS) served besides PUBLIC_URL's and, for local clients, loopback. */
  allowedHosts: string[];
  /** ALLOW_LOCAL_SIGNIN: local sign-in for every client, not only one on this machine. */
  localSignInAnywhere: boolean;
  /** A request body must bring minBytesPerSecond over every window of windowSeconds. */
  bodyTimeout: { windowSeconds: number; minBytesPerSecond: number };
  /** Aggregate topics (the recent games, tag lists) send at most one frame per this interval. */
  coalesceMs: number;
  /** The bearer token /metrics answers to; unset, /metrics does not exist. */
  metricsToken: string | undefined;
  /** The operators (moderators), by account uid (what GET /auth/me answers for one). */
  adminUids: string[];
  /** Where the embedded database runs (PGLITE_THREAD, `auto` resolved by pgliteThreadFor). */
  pgliteThread: PgliteThread;
}

/**
 * `auto`: PGlite in a thread of its own only when the process may run on three or more cores
 * (os.availableParallelism() counts the cores its CPU affinity allows, e.g. under taskset or a
 * container's cpuset). Every statement of a write is a hand-off to that thread and back, and
 * on two cores shared with the rest of the box each hand-off may wait for a core: measured on
 * two, with the load beside the server, the thread kept the event loop's delay lower but a
 * write took 3-4x as long at 150 writes/s and fell behind at 200, where PGlite in the server's
 * thread kept up (docs/performance.md, "Twelfth look"). On one core the thread could not run
 * beside the event loop at all. Three or more cores were not measured.
 */
export function pgliteThreadFor(
  setting: 'auto' | PgliteThread,
  cores = os.availableParallelism(),
): PgliteThread {
  if (setting !== 'auto') return setting;
  return cores >= 3 ? 'worker' : 'main';
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment; a wrong setting throws a ConfigError listing every problem. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  stdoutIsTTY = !!process.stdout.isTTY,
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  // DESIGN §3: local sign-in only on loopback without Google, unless explicitly forced; even
  // then each request must come from this machine (lib/hosts.ts isLocalRequest).
  const localSignIn = e.ALLOW_LOCAL_SIGNIN || (!e.GOOGLE_CLIENT_ID && isLoopbackName(e.HOST));
  if (!localSignIn && !e.GOOGLE_CLIENT_ID) {
    problems.push(
      'GOOGLE_CLIENT_ID: required when HOST is not loopback (nobody could sign in otherwise)',
    );
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'string') problems.push(`TRUST_PROXY: ${trustProxy}`);
  // Reachable from other machines, the server must know the names it is reached by: links
  // (QR codes, previews) are built on them and other names are refused.
  if (!isLoopbackName(e.HOST) && !e.PUBLIC_URL && !e.ALLOWED_HOSTS.length) {
    problems.push(
      `HOST ${e.HOST} is reachable from other machines: set PUBLIC_URL to the address people ` +
        'open (e.g. https://scores.example.org) or ALLOWED_HOSTS to the host names they use ' +
        '(e.g. 192.168.1.20,sagan.local)',
    );
  }
  // The simulator's games are the demo community's: without its scorekeeper every tick's write
  // would be refused.
  if (e.SIMULATE && !e.DEMO) {
    problems.push("SIMULATE: needs DEMO=true (it plays the demo community's games)");
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    google: { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL, issuers: e.GOOGLE_ISSUERS },
    localSignIn,
    cookieSecure: e.COOKIE_SECURE ?? e.PUBLIC_URL?.startsWith('https://') ?? false,
    demo: e.DEMO,
    simulate: e.SIMULATE,
    rateLimitFactor: e.RATE_LIMIT_FACTOR,
    logLevel: e.LOG_LEVEL,
    logFormat: resolveLogFormat(e.LOG_FORMAT, e.NODE_ENV, stdoutIsTTY),
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    supportEmail: e.SUPPORT_EMAIL,
    operator: {
      name: e.OPERATOR_NAME ?? null,
      contact: e.OPERATOR_EMAIL ?? e.SUPPORT_EMAIL,
    },
    links: {
      about: e.ABOUT_URL ?? null,
      apps: e.APPS_URL ?? null,
      blog: e.BLOG_URL ?? null,
      social: e.SOCIAL_URL ?? null,
      promo: e.PROMO_URL ?? null,
      playerCounter: e.PLAYER_COUNTER_URL ?? null,
    },
    sessionDays: e.SESSION_DAYS,
    sessionIdleDays: e.SESSION_IDLE_DAYS,
    trustProxy: typeof trustProxy === 'string' ? false : trustProxy,
    allowedHosts: e.ALLOWED_HOSTS,
    localSignInAnywhere: e.ALLOW_LOCAL_SIGNIN,
    bodyTimeout: {
      windowSeconds: e.BODY_TIMEOUT_SECONDS,
      minBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND,
    },
    coalesceMs: e.REALTIME_COALESCE_MS,
    metricsToken: e.METRICS_TOKEN,
    adminUids: e.ADMIN_UIDS,
    pgliteThread: pgliteThreadFor(e.PGLITE_THREAD),
  };
}
