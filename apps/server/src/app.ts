import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { API_PATH } from '@sagan/shared/http';
import { MAX_FRAME_BYTES } from '@sagan/shared/realtime';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import dbPlugin from './plugins/db.ts';
import realtimePlugin from './plugins/realtime.ts';
import authPlugin, { sessionCookieName } from './plugins/auth.ts';
import { swaggerOptions } from './openapi.ts';
import { loggerOptions, logRequests } from './logging.ts';
import hostsPlugin from './plugins/hosts.ts';
import bodyTimeoutPlugin from './plugins/body-timeout.ts';
import { fastifyTrustProxy } from './lib/hosts.ts';
import { HttpError } from './lib/http-errors.ts';
import { sharedLimitStore } from './lib/shared-limit-store.ts';
import authRoutes from './routes/auth/index.ts';
import healthRoutes from './routes/health.ts';
import scoreboardsRoutes from './routes/scoreboards/index.ts';
import teamsheetsRoutes from './routes/teamsheets/index.ts';
import playcountsRoutes from './routes/playcounts/index.ts';
import photosRoutes from './routes/photos/index.ts';
import { photoStoreOf } from './routes/photos/public.ts';
import opsRoutes from './routes/ops/index.ts';
import accountRoutes from './routes/account/index.ts';
import coscorersRoutes from './routes/coscorers/index.ts';
import wsRoute from './realtime/ws-route.ts';
import { buildFileReader, inlineScriptHashes } from './critical-path.ts';
import { loadWebBuild, registerWebApp } from './web-app.ts';
import { registerCompression } from './plugins/compression.ts';
import { SMALL_BODY_BYTES } from './lib/body-limits.ts';
import { trimNonDocumentHeaders } from './lib/document-headers.ts';
import metricsPlugin from './ops/metrics.ts';

export interface BuildOptions {
  db?: Db;
  /** The configured database, opened before the app's modules loaded (server.ts). */
  opening?: Promise<Db>;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config),
    // logging.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // DESIGN §9: X-Forwarded-* only from the proxies TRUST_PROXY names, never from anyone.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Larger bodies are opted into per route (lib/body-limits.ts, photo uploads).
    bodyLimit: SMALL_BODY_BYTES,
    // The embedded database starts in its own thread, no longer blocking the plugin timer: a
    // new data folder's initdb takes tens of seconds on a small or busy machine.
    pluginTimeout: 120_000,
  });
  logRequests(app);
  // Started before the database is awaited below: the main thread would otherwise wait idle.
  const webBuild = loadWebBuild(config, app.log);
  // A failure is reported where it is awaited, not as an unhandled rejection meanwhile.
  webBuild.catch(() => undefined);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((err, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'is invalid',
      }));
      return reply.code(400).send({
        error: `Invalid request: ${issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join('; ')}`,
        issues,
      });
    }
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).send({ ...err.body, error: err.message });
    }
    // PostgreSQL refuses some text valid JSON can carry (NUL, lone surrogates): found by the
    // fuzzer. The transaction was rolled back, so it is the client's bad input.
    const pgCode = (err as { code?: unknown }).code;
    if (pgCode === '22021' || pgCode === '22P05' || pgCode === '22P02') {
      return reply
        .code(400)
        .send({ error: 'Invalid request: text with characters we cannot store' });
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if ((err as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const kb = Math.floor((req.routeOptions.bodyLimit ?? SMALL_BODY_BYTES) / 1024);
      return reply.code(413).send({ error: `Too large: this request takes at most ${kb} KB` });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: (err as Error).message });
    }
    req.log.error({ err }, 'request failed');
    // DESIGN §7: details stay in our logs; the client gets a short safe sentence.
    return reply.code(500).send({ error: 'Something went wrong. Please try again.' });
  });

  await app.register(cookie);
  // The theme script and after-paint.js are inlined in server-rendered pages
  // (critical-path.ts): allowed by their hashes, so no other inline script can run.
  const inlineHashes = inlineScriptHashes(buildFileReader(config.webDist));
  // Helmet's middleware is built once, at start: the headers never change, and building it
  // parses every directive (built per request, it cost 16 KB of garbage and 20-30 µs each).
  const secureHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineHashes, 'https://accounts.google.com/gsi/client'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        frameSrc: ['https://accounts.google.com/gsi/'],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Google's sign-in popup talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  // Helmet 8 throws rather than passing an error on: it has none to pass.
  app.addHook('onRequest', (req, reply, done) => {
    secureHeaders(req.raw, reply.raw, () => done());
  });
  // The policy and its kin govern documents only (lib/document-headers.ts). SVG keeps them:
  // opened on its own, it is a document that can script.
  app.addHook('onSend', async (_req, reply) => trimNonDocumentHeaders(reply));
  await registerCompression(app);
  await app.register(bodyTimeoutPlugin, { config });
  await app.register(hostsPlugin, { config });
  // Sessions, sheets and play counts must not stay in a shared or browser cache; a route that
  // chose its own caching keeps it.
  app.addHook('onSend', async (_req, reply) => {
    const type = reply.getHeader('content-type');
    if (
      !reply.hasHeader('cache-control') &&
      typeof type === 'string' &&
      type.startsWith('application/json')
    ) {
      reply.header('cache-control', 'no-store');
    }
  });
  // Counted in the database every node shares (lib/shared-limit-store.ts).
  const writeLimitCounts = { claims: 0, local: 0 };
  app.decorate('writeLimitCounts', writeLimitCounts);
  await app.register(rateLimit, {
    global: false,
    store: sharedLimitStore(() => app.db, writeLimitCounts),
  });
  // Before the websocket plugin's own close hook, so viewers get the reconnect hint first.
  app.addHook('preClose', async () => {
    if (app.hasDecorator('hub')) await app.hub.stop();
  });
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });

  await app.register(swagger, swaggerOptions(config, sessionCookieName(config)));
  await app.register(swaggerUi, {
    routePrefix: `${API_PATH}/docs`,
    staticCSP: true,
    // swagger-ui sets a few inline styles; scripts stay hash-locked by staticCSP.
    transformStaticCSP: (header) =>
      header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
  });

  await app.register(dbPlugin, { config, db: opts.db, opening: opts.opening });
  await app.register(realtimePlugin);
  await app.register(authPlugin);
  await app.register(metricsPlugin);
  // One photo store for every feature that keeps or serves photos.
  app.decorate('photoStore', photoStoreOf(config.dataDir));

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(scoreboardsRoutes);
      await api.register(teamsheetsRoutes);
      await api.register(playcountsRoutes);
      await api.register(photosRoutes);
      await api.register(opsRoutes);
      await api.register(accountRoutes);
      await api.register(coscorersRoutes);
    },
    { prefix: API_PATH },
  );
  await app.register(wsRoute);
  await registerWebApp(app, config, webBuild);
  return app;
}
