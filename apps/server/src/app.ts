import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { BASE_PATH, clientRoutePatterns } from '@sagan/shared/routes';
import { MAX_FRAME_BYTES } from '@sagan/shared/realtime';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import dbPlugin from './plugins/db.ts';
import authPlugin from './plugins/auth.ts';
import { HttpError } from './lib/http-errors.ts';
import authRoutes from './routes/auth.ts';
import healthRoutes from './routes/health.ts';
import scoreboardsRoutes from './routes/scoreboards/index.ts';
import teamsheetsRoutes from './routes/teamsheets/index.ts';
import playcountsRoutes from './routes/playcounts/index.ts';
import wsRoute from './realtime/ws-route.ts';

export interface BuildOptions {
  db?: Db;
  logger?: FastifyServerOptions['logger'];
}

const API_PREFIX = `${BASE_PATH}/api`;
const MINI_CARD_PATH = `${BASE_PATH}/viewscoreboardmini/`;

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: true,
    // Larger bodies are opted into per route (photo uploads).
    bodyLimit: 256 * 1024,
  });
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
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ error: err.message });
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: (err as Error).message });
    }
    req.log.error({ err }, 'request failed');
    // DESIGN §7: details stay in our logs; the client gets a short safe sentence.
    return reply.code(500).send({ error: 'Something went wrong. Please try again.' });
  });

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
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
  // The mini card is made to be embedded by other sites (that route only).
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith(MINI_CARD_PATH)) {
      reply.removeHeader('x-frame-options');
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string') {
        reply.header(
          'content-security-policy',
          csp.replace("frame-ancestors 'none'", 'frame-ancestors *'),
        );
      }
    }
  });
  await app.register(rateLimit, { global: false });
  // Before the websocket plugin's own close hook, so viewers get the reconnect hint first.
  app.addHook('preClose', async () => {
    if (app.hasDecorator('hub')) await app.hub.stop();
  });
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Sagan API',
        description:
          'Live scoreboards, team sheets and play counts. Cookie sessions for the web app ' +
          '(state-changing requests carry X-Sagan-Request: 1); companion apps send ' +
          '`Authorization: Bearer <Google ID token>`.',
        version: '1.0.0',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          googleIdToken: { type: 'http', scheme: 'bearer', bearerFormat: 'Google ID token' },
          session: { type: 'apiKey', in: 'cookie', name: 'sagan_session' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: true });

  await app.register(dbPlugin, { config, db: opts.db });
  await app.register(authPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(scoreboardsRoutes);
      await api.register(teamsheetsRoutes);
      await api.register(playcountsRoutes);
    },
    { prefix: API_PREFIX },
  );
  await app.register(wsRoute);
  await registerWebApp(app, config);
  return app;
}

const clientRouteRegexes = clientRoutePatterns.map(
  (p) =>
    new RegExp(
      '^' +
        p
          .replace(/\/:\w+\?/g, '(?:/[^/]+)?')
          .replace(/:\w+/g, '[^/]+')
          .replace(/\/$/, '') +
        '/?$',
    ),
);

export function isClientRoute(pathname: string): boolean {
  return clientRouteRegexes.some((r) => r.test(pathname));
}

/** The built web app, with history fallback for every client route of SPEC §2. */
async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const indexPath = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexPath);
  if (!hasWeb) app.log.warn({ webDist: config.webDist }, 'web app not built; API only');
  const indexHtml = hasWeb ? fs.readFileSync(indexPath, 'utf8') : '';

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: `${BASE_PATH}/`,
      index: false,
      wildcard: true,
      setHeaders(res, filePath) {
        // Vite puts a content hash in every asset name, so they never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'public, max-age=3600');
        }
      },
    });
  }

  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect(`${BASE_PATH}/`));
  app.get(BASE_PATH, { schema: { hide: true } }, (_req, reply) => reply.redirect(`${BASE_PATH}/`));

  // The static plugin answers 403 for its root folder; the app's home is index.html.
  if (hasWeb) {
    app.get(`${BASE_PATH}/`, { schema: { hide: true } }, (_req, reply) =>
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml),
    );
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      pathname.startsWith(`${BASE_PATH}/`) &&
      !pathname.startsWith(`${API_PREFIX}/`) &&
      hasWeb
    ) {
      const route = pathname.slice(BASE_PATH.length) || '/';
      // Unknown paths still get the app (it shows its not-found page) but with a 404 status.
      return reply
        .code(isClientRoute(route) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(indexHtml);
    }
    return reply.code(404).send({ error: 'Not found' });
  });
}
