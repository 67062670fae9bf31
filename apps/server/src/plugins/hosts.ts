import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PATH } from '@sagan/shared/http';
import type { Config } from '../config.ts';
import {
  absoluteFormAuthority,
  hostPolicy,
  isAllowedHost,
  isValidHostHeader,
} from '../lib/hosts.ts';
import { refuseAndClose as refuse } from '../lib/http-errors.ts';

const HEALTH_ROUTE = `${API_PATH}/health`;

/**
 * Only hosts this server is known by are served (DESIGN §9 "Proxies and hosts"): a page on a
 * DNS-rebinding domain cannot talk to a server on this machine or LAN, and no link (QR code,
 * share preview) is ever built on a host a client made up. The load balancer's health check
 * may use any name.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    const policy = hostPolicy(config.allowedHosts, config.publicUrl, config.port);
    app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.routeOptions.url === HEALTH_ROUTE) return;
      const header = req.headers.host;
      if (!isValidHostHeader(header)) {
        return refuse(req, reply, 400, 'Missing or malformed Host header');
      }
      // A target in absolute form (`GET http://name/path`, sent only to proxies) names its own
      // host, which HTTP ranks above Host: it must be this same one, or links would be built on
      // a name the request was not for.
      const authority = absoluteFormAuthority(req.url);
      if (authority !== undefined && authority.toLowerCase() !== header.toLowerCase()) {
        return refuse(req, reply, 400, 'The request target names another host than Host');
      }
      // req.host is X-Forwarded-Host only when the socket is a trusted proxy.
      const host = req.host;
      if (!isAllowedHost(policy, host, req.ip)) {
        req.log.info({ host }, 'request for a host this server is not configured for');
        return refuse(
          req,
          reply,
          421,
          'This server does not answer for this host name (see ALLOWED_HOSTS)',
        );
      }
    });
  },
  { name: 'hosts' },
);
