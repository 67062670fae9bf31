import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { BASE_PATH, clientRoutePatterns } from '@sagan/shared/routes';
import type { Config } from './config.ts';
import { injectPreview, previewFor } from './share-preview.ts';

const API_PREFIX = `${BASE_PATH}/api`;

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
export async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
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

  app.setNotFoundHandler(async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      pathname.startsWith(`${BASE_PATH}/`) &&
      !pathname.startsWith(`${API_PREFIX}/`) &&
      hasWeb
    ) {
      const route = pathname.slice(BASE_PATH.length) || '/';
      const known = isClientRoute(route);
      let html = indexHtml;
      // Issue 8: shared links get a preview card; public sheets stay out of search engines.
      const preview = known ? await previewFor(app.db, route) : null;
      if (preview) {
        const origin = config.publicUrl ?? `${req.protocol}://${req.host}`;
        html = injectPreview(indexHtml, preview, `${origin}${pathname}`, origin);
        if (preview.noindex) reply.header('x-robots-tag', 'noindex');
      }
      // Unknown paths still get the app (it shows its not-found page) but with a 404 status.
      return reply
        .code(known ? 200 : 404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    }
    return reply.code(404).send({ error: 'Not found' });
  });
}
