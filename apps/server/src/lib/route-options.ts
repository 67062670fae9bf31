// The route options a feature's signed-in routes share, so that each route declares only what
// is its own: its summary, what it takes and what it answers.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeAny } from 'zod';
import { refusals } from '@sagan/shared/http';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { writeLimit, type WriteKind } from './write-limits.ts';

/** What a route takes: its path parameters and body, each a shared schema. */
interface Takes {
  params?: ZodTypeAny;
  body?: ZodTypeAny;
}

/** What a route answers besides the refusals, by status. */
type Answers = Record<number, ZodTypeAny>;

/**
 * The options of one feature's signed-in routes (tagged `tag` in the API document). Each
 * answers the standard refusals beside its own answers; a write is also held to the write
 * limit of its kind and takes an Idempotency-Key.
 */
export function signedInRoutes(app: FastifyInstance, tag: string) {
  const tags = [tag];
  return {
    read: <T extends Takes, A extends Answers>(summary: string, takes: T, answers: A) => ({
      schema: { tags, summary, ...takes, response: { ...answers, ...refusals } },
    }),
    write: <T extends Takes, A extends Answers>(
      summary: string,
      takes: T,
      answers: A,
      kind: WriteKind = 'edit',
    ) => ({
      config: writeLimit(app.config.rateLimitFactor, kind),
      schema: {
        tags,
        summary,
        headers: idempotentHeadersSchema,
        ...takes,
        response: { ...answers, ...refusals },
      },
    }),
  };
}
