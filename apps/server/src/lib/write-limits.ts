import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-errors.ts';
import type { RateLimitOptions } from '@fastify/rate-limit';

/**
 * Writes per minute per caller at RATE_LIMIT_FACTOR 1, for cookie (web) and Bearer (phone app)
 * callers alike. Each is far above what a person scoring a game does (a basketball scorer
 * taps a few times a minute, a phone clock ticks once a second), with room for the web
 * outbox to replay a few hundred queued intents after a dead spot (DESIGN §9), and low
 * enough that one account cannot fill the database or the viewers' screens.
 */
export const WRITES_PER_MINUTE = {
  /** Scoreboard fields, Player Counter's whole-game saves. */
  score: 600,
  /** Clock ticks: the phone app sends one a second per running clock. */
  clock: 1200,
  /** New games, new teams, bulk uploads of players. */
  create: 60,
  comment: 300,
  tags: 120,
  /** Team, player and group edits, publishing, privacy, bookmarks and follows. */
  edit: 600,
  /** A message lands in a person's inbox (the scorekeeper's): nobody is flooded. */
  scorekeeperMessage: 5,
  /** A report lands in the operators' queue: one person cannot flood it. */
  report: 10,
} as const;

export type WriteKind = keyof typeof WRITES_PER_MINUTE;

/**
 * A signed-in caller is counted by user id, across all of their devices, whatever their
 * address (a club's coaches and parents often share one network); anyone else by address.
 */
function writerKey(req: FastifyRequest): string {
  return req.user ? `user:${req.user.uid}` : `ip:${req.ip}`;
}

/**
 * A route's `config`: `config: writeLimit(app.config.rateLimitFactor, 'score')`. Over the
 * limit the caller gets 429 with Retry-After (seconds until the minute's window ends).
 */
export function writeLimit(
  rateLimitFactor: number,
  kind: WriteKind,
): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: {
      max: Math.ceil(WRITES_PER_MINUTE[kind] * rateLimitFactor),
      timeWindow: '1 minute',
      keyGenerator: writerKey,
    },
  };
}

/**
 * Pictures decoded and re-encoded per minute per user, whichever route carries them (the photo
 * route, a player save with a data URL): the server's costliest work, on one budget.
 */
export const IMAGES_PER_MINUTE = 60;

/**
 * A handler's charge on the image budget, made just before it decodes a picture: over the
 * budget it throws 429 with Retry-After, before any CPU is spent on the image.
 */
export function imageBudget(
  app: FastifyInstance,
  rateLimitFactor: number,
): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const check = app.createRateLimit({
    max: Math.ceil(IMAGES_PER_MINUTE * rateLimitFactor),
    timeWindow: '1 minute',
    keyGenerator: (req) => `images ${writerKey(req)}`,
  });
  return async (req, reply) => {
    const result = await check(req);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)));
      throw new HttpError(
        429,
        `Too many pictures: at most ${result.max} a minute. Try again shortly.`,
      );
    }
  };
}
