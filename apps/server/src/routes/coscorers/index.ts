import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, okSchema, refusalsWithBadRequest } from '@sagan/shared/http';
import {
  coscorerListSchema,
  coscorerParamsSchema,
  inviteSchema,
  redeemAnswerSchema,
  redeemInputSchema,
  scoredKindSchema,
  type ScoredKind,
} from '@sagan/shared/coscorers';
import { keySchema } from '@sagan/shared/keys';
import { coscorersTopic } from '@sagan/shared/topics/coscorers';
import { gameKeyParamsSchema } from '@sagan/shared/scoreboard-views';
import { myScoringTopic } from '@sagan/shared/topics/user-scoring';
import { BASE_PATH, pathTo } from '@sagan/shared/routes';
import { requireUser } from '../../plugins/auth.ts';
import { requestOrigin } from '../../lib/hosts.ts';
import { qrPng } from '../../lib/qr.ts';
import { writeLimit } from '../../lib/write-limits.ts';
import { idempotentHeadersSchema } from '@sagan/shared/idempotency';
import { notFound } from '../../lib/http-errors.ts';
import { writeChange } from '../../lib/write.ts';
import {
  bindInvite,
  deleteCoscorer,
  insertInvite,
  loadCoscorers,
  loadScoring,
  ownsScored,
} from './repo.ts';
import { mayRedeem, ownsScoredThing } from './policy.ts';
import { audienceOf, closedBy } from './topics.ts';

const tags = ['coscorers'];
const PATHS: Record<ScoredKind, { base: string; what: string }> = {
  game: { base: '/games/:gameKey/coscorers', what: 'game' },
  playcount: { base: '/playcounts/:gameKey/coscorers', what: 'play count' },
};

/**
 * Co-scorers (DESIGN §10): the owner of a game or a play count invites others to score it
 * through a link, sees who did and revokes them; a signed-in user redeems a link once.
 */
export default async function coscorersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, hub } = app;
  hub.registerUserList(myScoringTopic, loadScoring);
  // The owner's open panel: who joined, live. The owner only, as the list over HTTP.
  hub.register({
    topic: coscorersTopic,
    authorize: async (user, arg) => {
      const parsed = scoredArg(arg);
      return !!user && !!parsed && (await ownsScored(db, parsed.kind, parsed.gameKey, user.uid));
    },
    load: async (q, arg) => {
      const parsed = scoredArg(arg);
      return parsed ? loadCoscorers(q, parsed.kind, parsed.gameKey) : null;
    },
  });

  for (const kind of ['game', 'playcount'] as const) {
    const { base, what } = PATHS[kind];
    app.post(
      base,
      {
        config: writeLimit(app.config.rateLimitFactor, 'edit'),
        schema: {
          tags,
          summary: `Invite a co-scorer to this ${what} (owner only): a link valid for 7 days, redeemed once`,
          description:
            'The token is shown this once: the server keeps only its hash. The link to share ' +
            "is `link` (the web app's /invite page with the token in its fragment); `qr` is " +
            'its QR code, a PNG data: URL.',
          params: gameKeyParamsSchema,
          response: { 200: inviteSchema, ...refusalsWithBadRequest },
        },
      },
      async (req) => {
        const { gameKey } = req.params;
        const uid = requireUser(req).uid;
        // Not kept under an Idempotency-Key: the answer holds the link's secret, which the
        // server keeps only as a hash. A retried invitation is a second link, which expires
        // unused or the owner cancels.
        const made = await writeChange(app, null, {
          guard: (q) => ownsScoredThing(q, kind, gameKey, uid),
          write: async (q) => ({
            touched: audienceOf({ kind: 'invited', scored: kind, gameKey }),
            answer: await insertInvite(q, kind, gameKey),
          }),
        });
        const origin = requestOrigin(req, app.config.publicUrl);
        // The token rides in the fragment, which browsers never send to a server.
        const link = `${origin}${BASE_PATH}${pathTo('invite')}#${made.token}`;
        const qr = `data:image/png;base64,${(await qrPng(link)).toString('base64')}`;
        return { ...made, link, qr };
      },
    );

    app.get(
      base,
      {
        schema: {
          tags,
          summary: `Who co-scores this ${what}, and its unused invitations (owner only)`,
          params: gameKeyParamsSchema,
          response: { 200: coscorerListSchema, ...refusalsWithBadRequest },
        },
      },
      async (req) =>
        db.tx(async (q) => {
          await ownsScoredThing(q, kind, req.params.gameKey, requireUser(req).uid);
          return (await loadCoscorers(q, kind, req.params.gameKey))!;
        }),
    );

    app.delete(
      `${base}/:coscorerId`,
      {
        config: writeLimit(app.config.rateLimitFactor, 'edit'),
        schema: {
          tags,
          summary: `Revoke a co-scorer of this ${what}, or cancel an unused invitation (owner only)`,
          description:
            'Takes effect on their next request; their open scorer screen is told at once.',
          headers: idempotentHeadersSchema,
          params: coscorerParamsSchema,
          response: { 200: okSchema, ...refusalsWithBadRequest, 422: errorSchema },
        },
      },
      async (req) => {
        const { gameKey, coscorerId } = req.params;
        const uid = requireUser(req).uid;
        // It takes effect on their next request, since every scorer's write looks the binding
        // up in its own transaction; their open screens learn it from their scoring list, and
        // their sockets lose the scorers' topics at once.
        return writeChange(app, req, {
          guard: (q) => ownsScoredThing(q, kind, gameKey, uid),
          write: async (q) => {
            const gone = await deleteCoscorer(q, kind, gameKey, coscorerId);
            if (!gone) throw notFound('No co-scorer or invitation with this id');
            const change = { kind: 'revoked' as const, scored: kind, gameKey, uid: gone.uid };
            return {
              touched: audienceOf(change),
              revoked: { topics: closedBy(change), ...(gone.uid ? { uid: gone.uid } : {}) },
              answer: { ok: true as const },
            };
          },
        });
      },
    );
  }

  app.post(
    '/coscorers/redeem',
    {
      config: writeLimit(app.config.rateLimitFactor, 'edit'),
      schema: {
        tags,
        summary: 'Redeem an invitation link: the signed-in caller becomes a co-scorer',
        description:
          'Once redeemed the link is bound to this account: someone else gets 409, the same ' +
          'account again the same answer. An unknown or expired link is 404.',
        headers: idempotentHeadersSchema,
        body: redeemInputSchema,
        response: {
          200: redeemAnswerSchema,
          ...refusalsWithBadRequest,
          409: errorSchema,
          422: errorSchema,
        },
      },
    },
    async (req) => {
      const { uid } = requireUser(req);
      return writeChange(app, req, {
        guard: (q) => mayRedeem(q, req.body.token, uid),
        write: async (q, { answer, bind }) => {
          if (!bind) return { touched: [], answer };
          await bindInvite(q, bind, uid);
          const { kind, gameKey } = answer;
          return { touched: audienceOf({ kind: 'redeemed', scored: kind, gameKey, uid }), answer };
        },
      });
    },
  );
}

/** 'game:{key}' or 'playcount:{key}', the argument of a coscorers topic; null otherwise. */
function scoredArg(arg: string): { kind: ScoredKind; gameKey: string } | null {
  const colon = arg.indexOf(':');
  const kind = scoredKindSchema.safeParse(arg.slice(0, colon));
  const gameKey = arg.slice(colon + 1);
  if (colon === -1 || !kind.success || !keySchema.safeParse(gameKey).success) return null;
  return { kind: kind.data, gameKey };
}
