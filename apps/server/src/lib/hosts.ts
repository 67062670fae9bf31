import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Which proxies may speak for the client (DESIGN §9 "Proxies and hosts"). Never `true`: that
 * would let any client choose its own address with X-Forwarded-For (and so dodge every
 * per-address limit) and its own host with X-Forwarded-Host.
 * - `false`: nobody; the client address is the socket's.
 * - a number: that many proxies in front, the nearest first.
 * - a list: the proxies' addresses, CIDRs or one of the named ranges Fastify knows.
 */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Parses TRUST_PROXY; the returned string is the problem when the value is not usable. */
export function parseTrustProxy(raw: string | undefined): TrustProxy | string {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '*') {
    return "would trust every client to name its own address; give your proxy's address (e.g. 127.0.0.1 or 10.0.0.0/8) or the number of proxies in front (e.g. 1)";
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 32 ? hops : 'a hop count must be between 0 and 32';
  }
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !NAMED_RANGES.has(e) && !isAddressOrCidr(e));
  if (bad.length) {
    return `not an address or CIDR: ${bad.join(', ')} (e.g. 127.0.0.1, 10.0.0.0/8, ::1, loopback)`;
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length) return false;
  const family = net.isIP(address);
  if (!family) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms: an address of this machine. */
function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (a === '::1') return true;
  return net.isIPv4(a) && a.startsWith('127.');
}

/** A loopback bind address or name (HOST): localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || isLoopbackAddress(h);
}

/** A syntactically valid Host header: a name, an IPv4 address or a bracketed IPv6, a port. */
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/i;

export function isValidHostHeader(host: string | undefined): host is string {
  if (!host || host.length > 255 || !HOST_HEADER.test(host)) return false;
  // A port no connection can have (0, 99999) names no server: nothing is built on it.
  const port = portOf(host);
  return port === undefined || (port >= 1 && port <= 65535);
}

const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)/i;

/** The host a request target in absolute form names (`http://name:port/path`); else undefined. */
export function absoluteFormAuthority(target: string): string | undefined {
  return ABSOLUTE_FORM.exec(target)?.[1];
}

/** A request target's path and query: an absolute form without its scheme and host. */
export function originForm(target: string): string {
  return target.replace(ABSOLUTE_FORM, '') || '/';
}

/** The Host header's port, when it has one. */
function portOf(host: string): number | undefined {
  const m = /:(\d+)$/.exec(host);
  return m && !host.endsWith(']') ? Number(m[1]) : undefined;
}

/** The Host header without its port, lower case (an IPv6 address keeps its brackets). */
function hostName(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
}

/** Exactly a loopback Host header: localhost, 127.x.y.z or [::1], with or without a port. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!isValidHostHeader(host)) return false;
  const name = hostName(host);
  return name === 'localhost' || name === '[::1]' || isLoopbackAddress(name);
}

/** Normalizes one ALLOWED_HOSTS entry: lower case, a bare IPv6 address gets its brackets. */
function normalizeAllowedHost(entry: string): string {
  const e = entry.trim().toLowerCase();
  return net.isIPv6(e) ? `[${e}]` : e;
}

export interface HostPolicy {
  /**
   * Entries of ALLOWED_HOSTS and PUBLIC_URL's host; with a port they allow only that port, and
   * without one only the ports of `ports`.
   */
  allowed: ReadonlySet<string>;
  /**
   * The ports an entry without one may be asked for: the web's defaults and the one this server
   * listens on. Any port would put links and QR codes (cached for an hour) on a port nobody
   * serves, or someone else's.
   */
  ports: ReadonlySet<number>;
}

export function hostPolicy(
  allowedHosts: string[],
  publicUrl: string | undefined,
  serverPort: number,
): HostPolicy {
  const allowed = new Set(allowedHosts.map(normalizeAllowedHost));
  if (publicUrl) allowed.add(new URL(publicUrl).hostname.toLowerCase());
  return { allowed, ports: new Set([80, 443, serverPort]) };
}

/**
 * Whether a request may be served under this host. Loopback names only for a client on this
 * machine: a DNS-rebinding page can never make a browser send them, and a remote client
 * sending one must not get links built on it.
 */
export function isAllowedHost(policy: HostPolicy, host: string, clientAddress: string): boolean {
  if (!isValidHostHeader(host)) return false;
  const full = host.toLowerCase();
  if (policy.allowed.has(full)) return true;
  const port = portOf(full);
  if (policy.allowed.has(hostName(full)) && (port === undefined || policy.ports.has(port))) {
    return true;
  }
  return isLoopbackHostHeader(host) && isLoopbackAddress(clientAddress);
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'forwarded', 'x-real-ip'];

/**
 * Local sign-in is for the person at this machine (DESIGN §3): the client address (resolved
 * through TRUST_PROXY) is loopback, and so is the Host it asked for. A proxy's headers without
 * TRUST_PROXY mean a proxy we know nothing about is relaying someone else: not local.
 */
export function isLocalRequest(req: FastifyRequest, trustProxy: TrustProxy): boolean {
  if (trustProxy === false && FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined)) {
    return false;
  }
  if (!isLoopbackAddress(req.ip)) return false;
  const header = req.headers.host;
  if (!isLoopbackHostHeader(header)) return false;
  // A trusted proxy's X-Forwarded-Host, when it sent one, must be loopback too.
  return req.host === header || isLoopbackHostHeader(req.host);
}

/**
 * The origin absolute links are built on (QR codes, share previews): PUBLIC_URL when set,
 * otherwise the host the request was addressed to, which the hosts plugin has already checked
 * (X-Forwarded-Host and -Proto only count from a trusted proxy).
 */
export function requestOrigin(req: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  const protocol = req.protocol === 'https' ? 'https' : 'http';
  return `${protocol}://${req.host}`;
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "the nearest N addresses". */
export function fastifyTrustProxy(
  trustProxy: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}
